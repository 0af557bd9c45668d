"""Small metrics that exercise the base class: a cat state with 2-D rows and a bool cat state."""
from typing import Dict

import torch
from torch import Tensor

from torchmetrics_lite.metric import Metric


class CollectRows(Metric):
    """Keeps every (value, flag) row; computes (sorted values, count of flags, row-sum of a 2-D cat state)."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.add_state("values", torch.empty(0, dtype=torch.float32), reduce="cat")
        self.add_state("flags", torch.empty(0, dtype=torch.bool), reduce="cat")
        self.add_state("pairs", torch.empty(0, 2, dtype=torch.int64), reduce="cat")
        self.add_state("n_updates", torch.zeros((), dtype=torch.int64), reduce="sum")

    def batch_stats(self, values: Tensor, flags: Tensor) -> Dict[str, Tensor]:
        pairs = torch.stack([flags.long(), torch.arange(len(flags))], dim=1)
        return {"values": values, "flags": flags.bool(), "pairs": pairs,
                "n_updates": torch.ones((), dtype=torch.int64)}

    def compute_from_stats(self, state: Dict[str, Tensor]):
        return {
            "sorted": torch.sort(state["values"].double()).values,
            "dtype_is_64": torch.tensor(state["values"].dtype == torch.float64),
            "n_flags": state["flags"].sum(),
            "pairs_sum": state["pairs"].sum(0),
            "rows": torch.tensor(state["pairs"].shape[0]),
        }
