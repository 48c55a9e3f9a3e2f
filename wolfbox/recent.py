"""A list that keeps only its last items.

Records a running box keeps (lines played, mock pin changes) are read by
tests, the bench and the self-test; kept whole, they would grow for as long
as the box runs. Still a list, so it compares equal to one and slices.
"""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")


class Recent(list[T]):
    """The last `limit` items appended."""

    def __init__(self, limit: int = 200) -> None:
        super().__init__()
        self.limit = limit

    def append(self, item: T) -> None:
        super().append(item)
        if len(self) > self.limit:
            del self[: len(self) - self.limit]
