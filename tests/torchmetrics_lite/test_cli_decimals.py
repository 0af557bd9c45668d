"""The command line's decimal parser at every position of the decimal point (issue 23 item 9): each field of 1 to
8 bytes (the one-word path) and of 9 to 16 bytes (the two-word path), with and without a sign, equals Python's
``float``; a randomised test misses a point read one byte off 3 times in 10, this one never does."""
import numpy as np
import pytest

from torchmetrics_lite.cli.parse import decimals, fields, padded

DIGITS = "7182818284590452"  # no two neighbours equal: a point read one byte off changes the value


def _tokens(max_bytes):
    out = []
    for length in range(1, max_bytes + 1):
        for sign in ("", "-", "+"):
            n = length - len(sign)
            if n < 1:
                continue
            out.append(sign + DIGITS[:n])  # no point
            for at in range(n):  # the point at every byte of the field: ".718", "7.18", "71.8", "718."
                if n - 1 >= 1:
                    out.append(sign + DIGITS[: n - 1][:at] + "." + DIGITS[: n - 1][at:])
    return [t for t in out if t.lstrip("+-") not in (".", "")]


def _parse(tokens):
    text = padded(" ".join(tokens).encode())
    f = fields(text, text.lo, text.hi)
    return decimals(text, f.start, f.end)


@pytest.mark.parametrize("max_bytes", [8, 16], ids=["one word", "two words"])
def test_every_point_position_parses_as_python_float(max_bytes):
    tokens = _tokens(max_bytes)
    if max_bytes == 16:
        assert max(map(len, tokens)) > 8  # the two-word path runs
    values, ok = _parse(tokens)
    for token, value, fast in zip(tokens, values.tolist(), ok.tolist()):
        assert fast, token
        assert value == float(token) and np.signbit(value) == np.signbit(float(token)), token


def test_short_fields_take_the_two_word_path_beside_a_long_one():
    tokens = _tokens(8)
    values, ok = _parse([*tokens, "1234567.89012"])  # one field of 13 bytes: every field is read from two words
    assert ok.all()
    assert values.tolist() == [float(t) for t in tokens] + [1234567.89012]
