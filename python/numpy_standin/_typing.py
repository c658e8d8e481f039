"""``numpy.typing``: the annotations harness code writes (``NDArray[np.float32]``,
``ArrayLike``, ``DTypeLike``). They only annotate; nothing checks them at run time."""
import typing

from ._dtypes import dtype
from ._ndarray import ndarray

_Scalar = typing.TypeVar("_Scalar")

NDArray = ndarray[typing.Any, dtype[_Scalar]]
ArrayLike = typing.Union[ndarray, typing.Sequence, int, float, bool]
DTypeLike = typing.Union[dtype, type, str, None]
NBitBase = object

NAMES = ("NDArray", "ArrayLike", "DTypeLike", "NBitBase")
