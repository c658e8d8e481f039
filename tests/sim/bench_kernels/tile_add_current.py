"""Element-wise a + b in the current language (NKI 0.6.0) for the simulator's benchmark: the
kernel users write today, over 512-column tiles of a row-major tensor — an unrolled loop whose
iterations allocate their sbuf tiles, dma_copy the blocks in, add them with a dst-first
tensor_tensor and dma_copy the sum out.
"""
import nki
import nki.isa as nisa
import nki.language as nl
import numpy as np

WIDTH = 512  # columns per tile


@nki.jit
def tile_add(a, b):
    rows, cols = a.shape
    out = nl.ndarray((rows, cols), dtype=a.dtype, buffer=nl.shared_hbm)
    for j in nl.affine_range(cols // WIDTH):
        block = slice(j * WIDTH, (j + 1) * WIDTH)
        x = nl.ndarray((rows, WIDTH), dtype=a.dtype, buffer=nl.sbuf)
        y = nl.ndarray((rows, WIDTH), dtype=a.dtype, buffer=nl.sbuf)
        nisa.dma_copy(dst=x, src=a[:, block])
        nisa.dma_copy(dst=y, src=b[:, block])
        s = nl.ndarray((rows, WIDTH), dtype=a.dtype, buffer=nl.sbuf)
        nisa.tensor_tensor(dst=s, data1=x, data2=y, op=nl.add)
        nisa.dma_copy(dst=out[:, block], src=s)
    return out


if __name__ == "__main__":
    np.random.seed(0)
    a = np.random.standard_normal((128, 4096)).astype(np.float32)
    b = np.random.standard_normal((128, 4096)).astype(np.float32)
    y = nki.simulate(tile_add)(a, b)
    print("simulated tile_add matches NumPy:", np.array_equal(y, a + b))
