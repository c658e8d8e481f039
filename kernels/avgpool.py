"""2-D average pooling of a [C, H, W] image with a square window, one channel per partition.

The window is read as a 5-D view of each channel's row (`nl.mgrid` gives the five index
tiles) and reduced over the two window axes at once.
"""
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.typing as nt


@nki.jit
def avgpool2d(image, pool):
    channels, height, width = image.shape
    out_h, out_w = height // pool, width // pool
    out = nl.ndarray((channels, out_h, out_w), dtype=image.dtype, buffer=nl.shared_hbm)

    pixels = nl.load(image)
    c, oh, wh, ow, ww = nl.mgrid[0:channels, 0:out_h, 0:pool, 0:out_w, 0:pool]
    windows = pixels[c, oh * pool + wh, ow * pool + ww]
    sums = nl.sum(windows, axis=[2, 4])
    mean = sums / (pool * pool)

    nl.store(out, value=mean)
    return out


if __name__ == "__main__":
    ir = nki.trace_kernel(avgpool2d, nt.tensor[[2, 6, 6], nl.float16], 2)
    print(f"traced {ir.kernel_name}: {ir.instruction_count} instructions")

    # The same call simulated on seeded data, checked against NumPy (float16: loose tolerance).
    import numpy as np
    np.random.seed(0)
    image = np.random.uniform(0, 1, (2, 6, 6)).astype(np.float16)
    pooled = nki.simulate_kernel(avgpool2d, image, 2)
    expected = image.astype(np.float32).reshape(2, 3, 2, 3, 2).mean(axis=(2, 4))
    print("simulated avgpool2d matches NumPy:", np.allclose(pooled, expected, atol=1e-3))
