from typing import Any, Literal, Sequence

import dask.bag
import dask.dataframe

def list_files(paths_or_urls: str | Sequence[str], *,
               storage_options: dict[str, Any] | None = None,
               include: str | None = None) -> list[str]: ...
def read(paths_or_urls: str | Sequence[str], *, files_per_partition: int = 64,
         blocksize: int | str | None = None, storage_options: dict[str, Any] | None = None, include: str | None = None,
         errors: Literal["raise", "skip"] = "raise", **limits: int) -> dask.bag.Bag: ...
def to_dataframe(paths_or_urls: str | Sequence[str], fields: Sequence[str] | None = None,
                 rows: str | None = None, *, titles: Sequence[str] | None = None,
                 validate: bool = False, dictionary: str | Sequence[str] | None = None,
                 files_per_partition: int = 64, blocksize: int | str | None = None,
                 storage_options: dict[str, Any] | None = None, include: str | None = None,
                 errors: Literal["raise", "skip"] = "raise",
                 **limits: int) -> dask.dataframe.DataFrame: ...
