import os

import torch

# Small ops on a 2-core machine suffer from thread wake-ups; tests do not need intra-op parallelism.
torch.set_num_threads(1)
os.environ.setdefault("OMP_NUM_THREADS", "1")
