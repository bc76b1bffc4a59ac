"""A worker process that thinks for a host's hard bots: ``python -m cardparty.net.thinker``.

Owns: the worker's side of the pipe protocol between a host and its thinkers, and the frame
format both sides use (``pack_frame``, ``Frames``). A job comes on stdin, an answer goes to
stdout, each a frame: four bytes of length (big-endian) and one msgpack map.

- job: ``{"id": N, "save": Table.save() bytes, "seat": S, "seed": "digits" (any whole
  number: msgpack's stop at 64 bits), "budget": {Budget's fields}}``, and ``"what": "hint"``
  for a player's hint rather than a bot's move, ``"what": "review"`` with ``"played"`` (the
  index of the move the player made) for one decision of a review;
- answer: ``{"id": N, "index": I}`` (an index into that table's ``legal_moves(S)``; a hint's
  also ``"reason"``: a ``Msg`` wire map or None; a review's also ``"loss"``, a number) or
  ``{"id": N, "error": "words"}``.

The worker is a pure function of its jobs (``core.search.decide``, ``core.hint.hint_index``:
both decide from the seat's own view): it keeps nothing between
them, so a host may kill it at any moment and start another. It lowers its own priority
(``NICE``): a host's loop must win the CPU from its bots' thinking, or the other players
wait. It ends when its stdin ends (the host closed it, or died).

Must not know about: sockets, players, tables as the host keeps them, the host's loop.
"""

from __future__ import annotations

import contextlib
import os
import struct
import sys
from typing import BinaryIO, Required, TypedDict, cast

import msgpack

#: How much lower than its host a thinker runs (``os.nice``): the host's loop answers the
#: players first; the bots think with what is left.
NICE = 5
#: The largest frame either side accepts: a table's save is tens of KB; a megabyte is a bug.
MAX_FRAME = 8 * 1024 * 1024
_LEN = struct.Struct(">I")


class BudgetMap(TypedDict):
    """A ``core.search.Budget`` as a job carries it: every field by its name."""

    iterations: int | None
    seconds: float | None
    rollout_moves: int | None
    exploration: float
    depth: int
    trust: float
    opponents: str
    method: str
    confidence: float
    drop: float
    warmup: int
    min_samples: int
    infer: bool
    objective: str


class Job(TypedDict, total=False):
    """What a host asks a worker (the module docstring): the job's id, the table's save,
    the seat, the seed in digits, the budget, what to think (a bot's move when absent) and,
    for a review, the index of the move the player made."""

    id: Required[int]
    save: Required[bytes]
    seat: Required[int]
    seed: Required[str]
    budget: Required[BudgetMap]
    what: str
    played: int


class Answer(TypedDict, total=False):
    """What a worker answers (the module docstring): the job's id (None for a job too
    broken to have one) and the move's index, with a hint's or a review's reason and a
    review's loss; or ``error`` in words."""

    id: Required[int | None]
    index: int
    reason: dict[str, object] | None
    loss: float
    error: str


def pack_frame(obj: Job | Answer) -> bytes:
    """One frame: its length, then the map as msgpack."""
    body = msgpack.packb(obj, use_bin_type=True)
    return _LEN.pack(len(body)) + body


class Frames:
    """A worker's answers from a byte stream read in pieces of any size (``feed``, then
    iterate); ValueError for a frame too big, or one that holds no map."""

    def __init__(self) -> None:
        self.buffer = bytearray()

    def feed(self, data: bytes) -> list[Answer]:
        self.buffer += data
        out: list[Answer] = []
        while len(self.buffer) >= 4:
            (size,) = _LEN.unpack_from(self.buffer)
            if size > MAX_FRAME:
                raise ValueError(f"a thinker frame of {size} bytes")
            if len(self.buffer) < 4 + size:
                break
            body = bytes(self.buffer[4:4 + size])
            del self.buffer[:4 + size]
            got = msgpack.unpackb(body, raw=False, strict_map_key=False)
            if not isinstance(got, dict):
                raise ValueError("a thinker frame that holds no map")
            out.append(cast(Answer, got))      # a map; its fields are read with care
        return out


def _read_exactly(stream: BinaryIO, n: int) -> bytes | None:
    data = b""
    while len(data) < n:
        chunk = stream.read(n - len(data))
        if not chunk:
            return None
        data += chunk
    return data


def answer(job: Job) -> Answer:
    """The answer to one job (an error in words rather than an exception: the host plays a
    normal bot's move instead and goes on)."""
    from cardparty.core.hint import hint_index
    from cardparty.core.review import judge_index
    from cardparty.core.search import Budget, decide

    try:
        budget = Budget(**job["budget"])
        if job.get("what") == "hint":
            index, reason = hint_index(job["save"], job["seat"], int(job["seed"]), budget)
            return {"id": job["id"], "index": index, "reason": reason}
        if job.get("what") == "review":
            index, loss, reason = judge_index(job["save"], job["seat"], int(job["played"]),
                                              int(job["seed"]), budget)
            return {"id": job["id"], "index": index, "reason": reason, "loss": loss}
        index = decide(job["save"], job["seat"], int(job["seed"]), budget)
        return {"id": job["id"], "index": index}
    except Exception as exc:
        return {"id": job.get("id"), "error": f"{type(exc).__name__}: {exc}"}


def main() -> int:
    with contextlib.suppress(OSError):
        os.nice(NICE)
    # Imported before the first job, so that it does not wait for them.
    import cardparty.core.hint  # noqa: F401
    import cardparty.core.search  # noqa: F401
    from cardparty.core.discovery import load_catalog

    load_catalog()
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    while True:
        head = _read_exactly(stdin, 4)
        if head is None:
            return 0
        (size,) = _LEN.unpack(head)
        if size > MAX_FRAME:
            return 2
        body = _read_exactly(stdin, size)
        if body is None:
            return 0
        job = msgpack.unpackb(body, raw=False, strict_map_key=False)
        try:
            stdout.write(pack_frame(answer(job)))
            stdout.flush()
        except BrokenPipeError:
            return 0


if __name__ == "__main__":
    sys.exit(main())
