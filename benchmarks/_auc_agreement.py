"""The ``--speed`` part of ``bench_auc_quality``: each stateful loss forward + backward at 1e5 scores against
LibAUC's (alternating rounds, one thread), and the agreement of the values and gradients on the same inputs; the
losses without such a row (SONG, multi-label AUC-M, compositional AUC) over 4 steps with the state carried; and
LibAUC's SOAP optimizer against clip + Adam (``clipped_adam``, which the quality runs train with too). Run:
python -m benchmarks.bench_auc_quality --speed
"""
from __future__ import annotations

import statistics
import time

import torch

import losses


def clipped_adam(params):
    """``torch.optim.Adam`` (lr 1e-3, weight decay 1e-4) stepping after ``clip_grad_value_(..., 1.0)``: the
    optimizer the quality runs give the losses LibAUC trains with SOAP's Adam mode, and the one ``agreement``
    compares with SOAP's."""
    opt = torch.optim.Adam(params, lr=1e-3, weight_decay=1e-4)
    step = opt.step

    def clipped_step():
        torch.nn.utils.clip_grad_value_([p for group in opt.param_groups for p in group["params"]], 1.0)
        step()
    opt.step = clipped_step  # type: ignore[method-assign]
    return opt


def speed(lib) -> None:
    """Forward + backward at 1e5 scores (1% positives, batch-sized state), ours against LibAUC's; values agree."""
    n = 100_000
    g = torch.Generator().manual_seed(0)
    y = (torch.rand(n, generator=g) < 0.01).float()
    s0 = torch.rand(n, generator=g)
    idx = torch.arange(n)
    cpu = torch.device("cpu")
    cases = {
        "SOAP": (lambda: losses.SOAPLoss(n), lambda: lib["auc"].APLoss(data_len=n, device=cpu)),
        "pAUC KL-DRO": (lambda: losses.PartialAUCDROLoss(n), lambda: lib["auc"].pAUC_DRO_Loss(data_len=n, device=cpu)),
        "pAUC CVaR": (lambda: losses.PartialAUCCVaRLoss(n, max_fpr=0.1),
                      lambda: lib["auc"].pAUC_CVaR_Loss(data_len=n, pos_len=int(y.sum()), beta=0.1, device=cpu)),
        "two-way pAUC KL": (lambda: losses.TwoWayPartialAUCLoss(n),
                            lambda: lib["auc"].tpAUC_KL_Loss(data_len=n, device=cpu)),
        "AUC-M": (lambda: losses.AUCMLoss(), lambda: lib["auc"].AUCMLoss(device=cpu)),
    }
    print("| loss, 1e5 scores (1% positives), fwd+bwd | ours ms | LibAUC ms | LibAUC / ours | value diff | "
          "max grad diff / max grad |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, (mine, theirs) in cases.items():
        fns, first = [], []
        for make in (mine, theirs):
            loss_fn = make()
            s = s0.clone().requires_grad_()

            def run(loss_fn=loss_fn, s=s):
                s.grad = None
                (loss_fn(s, y) if name == "AUC-M" else loss_fn(s, y, idx)).backward()
                return s.grad
            value = loss_fn(s, y) if name == "AUC-M" else loss_fn(s, y, idx)  # fresh state: comparable values
            value.backward()
            first.append((float(value.detach().reshape(())), s.grad.clone()))
            fns.append(run)
        times: list[list[float]] = [[], []]
        for _ in range(5):  # alternating rounds
            for k, fn in enumerate(fns):
                start = time.perf_counter()
                fn()
                times[k].append(time.perf_counter() - start)
        t0, t1 = (statistics.median(t) for t in times)
        (v0, g0), (v1, g1) = first
        rel = float((g0 - g1).abs().max() / g1.abs().max().clamp_min(1e-30))
        print(f"| {name} | {t0 * 1e3:.1f} | {t1 * 1e3:.1f} | {t1 / t0:.1f}x | {abs(v0 - v1):.1e} | {rel:.1e} |",
              flush=True)


def agreement(lib) -> None:
    """The losses without a 1e5-score row: ours and LibAUC's on the same inputs over 4 training steps (the state
    carried), the largest relative difference of the values and of the gradients; SONG also timed."""
    g = torch.Generator().manual_seed(1)
    cpu = torch.device("cpu")
    print("\n| loss (LibAUC's) | inputs | max value diff / value | max grad diff / max grad | ours ms | LibAUC ms |")
    print("|---|---|---:|---:|---:|---:|")

    def compare(name, inputs, ours, theirs, call_ours, call_theirs, steps=4):
        worst_v = worst_g = 0.0
        times: list[list[float]] = [[], []]
        for step in range(steps):
            args = inputs(step)
            grads, values = [], []
            for k, (fn, call) in enumerate(((ours, call_ours), (theirs, call_theirs))):
                s = args[0].clone().requires_grad_()
                start = time.perf_counter()
                value = call(fn, s, *args[1:])
                value.backward()
                times[k].append(time.perf_counter() - start)
                values.append(float(value.detach()))
                grads.append(s.grad)
            worst_v = max(worst_v, abs(values[0] - values[1]) / max(abs(values[1]), 1e-30))
            worst_g = max(worst_g, float((grads[0] - grads[1]).abs().max() / grads[1].abs().max().clamp_min(1e-30)))
        t0, t1 = (statistics.median(t) * 1e3 for t in times)
        print(f"| {name} | {inputs.__doc__} | {worst_v:.1e} | {worst_g:.1e} | {t0:.1f} | {t1:.1f} |", flush=True)

    q, n_pos, n_neg, m = 64, 10, 90, 1000
    for k in (None, 10):
        def lists(step, q=q):
            """64 lists of 10 relevant + 90 sampled items"""
            users = torch.randperm(q, generator=g)
            rating = torch.zeros(q, n_pos + n_neg)
            rating[:, :n_pos] = torch.randint(1, 4, (q, n_pos), generator=g).float()
            ids = torch.zeros(q, n_pos + n_neg, dtype=torch.long)
            ids[:, :n_pos] = users[:, None] * n_pos + torch.arange(n_pos)[None]
            return (torch.rand(q, n_pos + n_neg, generator=g), rating, ids, users,
                    torch.randint(n_pos, 30, (q,), generator=g), torch.rand(q, generator=g) * 5 + 1)
        theirs = lib["ranking"].NDCGLoss(N=q * n_pos, num_user=q, num_item=m, num_pos=n_pos, topk=k or -1,
                                         topk_version="prac", device=cpu)
        compare("NDCGLoss" + (f" (K-SONG, k={k})" if k else " (SONG)"), lists,
                losses.SONGNDCGLoss(q * n_pos, q + 1, num_items=m, k=k), theirs,
                lambda fn, s, rel, ids, users, npos, idcg: fn(s, rel, ids, users, npos, idcg),
                lambda fn, s, rel, ids, users, npos, idcg: fn(s, dict(rating=rel, num_pos_items=npos,
                                                                       ideal_dcg=idcg, user_id=users,
                                                                       user_item_id=ids)))

    def multilabel(step):
        """1,000 x 10 labels"""
        return torch.rand(1000, 10, generator=g), (torch.rand(1000, 10, generator=g) < 0.1).float()
    compare("MultiLabelAUCMLoss", multilabel, losses.MultiLabelAUCMLoss(10),
            lib["auc"].MultiLabelAUCMLoss(num_labels=10, device=cpu), lambda fn, s, y: fn(s, y),
            lambda fn, s, y: fn(s, y))

    def binary(step):
        """1,000 scores, 10% positives"""
        return torch.rand(1000, generator=g), (torch.rand(1000, generator=g) < 0.1).float()
    w1 = torch.nn.Parameter(torch.randn(50, generator=g))
    w2 = torch.nn.Parameter(w1.detach().clone())
    theirs_opt = lib["soap"].SOAP([w1], lr=1e-3, mode="adam", weight_decay=1e-4, verbose=False, device=cpu)
    ours_opt = clipped_adam([w2])
    for _ in range(20):
        w1.grad = torch.randn(50, generator=g) * 3
        w2.grad = w1.grad.clone()
        theirs_opt.step()
        ours_opt.step()
    print(f"| SOAP optimizer (adam mode) against clip_grad_value_ + torch.optim.Adam | 50 weights, 20 steps | "
          f"weights differ by {float((w1 - w2).detach().abs().max()):.1e} | | | |")
    compare("CompositionalAUCLoss (k=1: CE, AUC-M, CE, AUC-M)", binary, losses.CompositionalAUCLoss(k=1),
            lib["auc"].CompositionalAUCLoss(k=1, device=cpu), lambda fn, s, y: fn(s, y),
            lambda fn, s, y: fn(s, y))
