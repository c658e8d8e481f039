"""More golden expressions (imported by golden_cases): advanced indexing, np.random.randint
and seeded draws, joining and shape helpers, sorting, arg-reductions, scans, var/std, take,
apply_along_axis, triangle indices, nonzero and einsum — on small arrays and on arrays of
1024+ elements (``big``, ``bigi``: core-backed under the fallback)."""

SETUP_MORE = """
m3 = np.arange(24).reshape(2, 3, 4)
fl = np.array([3.0, np.nan, -1.0, 2.0, -np.inf, 2.0])
big = np.arange(2048, dtype=np.float32).reshape(32, 64) % 37 - 18
bigi = (np.arange(4096).reshape(64, 64) * 7919) % 1000

def sorted_inplace(x, axis=-1):
    x = x.copy()
    x.sort(axis)
    return x
"""


def more_cases():
    out = []
    add = out.append
    # advanced indexing: get
    for e in ("m3[[0, 1]]", "m3[:, [2, 0]]", "m3[[1, 0], [2, 1]]", "m3[[1, 0], :, [3, 1]]",
              "m3[0, :, [1, 2]]", "m3[:, 1, [1, 2]]", "m3[..., [0, -1]]",
              "m3[np.array([[0], [1]]), np.array([[0, 2]])]", "m3[m3 > 10]",
              "m3[m3[:, :, 0] > 4]", "a[[True, False]]", "m3[[]]", "m3[[5]]",
              "m3[np.array([1.0])]", "a[np.array(1)]", "a[[0, 0, 1], 1:]", "f[f > 1]",
              "big[[0, 5, 31]].sum(axis=1)", "big[:, [1, 63]]", "big[big > 15].shape",
              "big[big > 15][:10]", "bigi[np.arange(0, 64, 2)][:, :3]", "bigi[[3, -1], [5, 7]]",
              "a[[True, False, True]]", "a[:, [True, False]]", "m3[..., [True, False, True, True]]",
              "m3[1, [True, False, True]]", "a[[1.5]]", "a[[0], 1.5]", "m3[m3[0] > 3]",
              "m3[[0, 1], ..., np.array([[1], [2]])]"):
        add(e)
    # advanced indexing: set
    for e in ("setitem(m3, ([0, 1], [2, 0]), -5)", "setitem(m3, m3 > 20, 0)",
              "setitem(a, (slice(None), [0, 2]), [[7], [8]])", "setitem(a, [0, 0], [1, 2, 3])",
              "setitem(f, f > 1, np.float32(9.5))", "setitem(m3, (0, [1, 2]), np.arange(8).reshape(2, 4))",
              "setitem(a, [0, 1], [1, 2])", "setitem(u8, [0, 1], 300)", "setitem(a, [[0], [1]], 2.7)",
              "setitem(big, ([1, 3], slice(None)), 1.5)[:4, :3]",
              "setitem(big, big < -17, 100.0).sum()",
              "setitem(bigi, (slice(None), [0, 63]), -1)[:3, [0, 1, 63]]",
              "setitem(np.zeros((4, 4)), np.triu_indices(4), -9984.0)",
              "setitem(np.zeros((40, 40), dtype=np.float32), np.triu_indices(40), 2.0).sum()"):
        add(e)
    # np.random: randint (NumPy's masked draws per dtype) and the stream shared with rand
    for e in ("np.random.seed(0) or np.random.randint(0, 10, size=5)",
              "np.random.seed(0) or np.random.randint(low=0, high=512, size=(16, 4), dtype=np.uint16)",
              "np.random.seed(1) or np.random.randint(0, 3, size=6, dtype=np.int8)",
              "np.random.seed(1) or np.random.randint(0, 2, size=5, dtype=bool)",
              "np.random.seed(2) or np.random.randint(-2**40, 2**40, size=3)",
              "np.random.seed(2) or np.random.randint(0, 256, size=4, dtype=np.uint8)",
              "np.random.seed(2) or np.random.randint(-5, 5, size=(2, 3), dtype=np.int32)",
              "np.random.seed(3) or np.random.randint(7)",
              "np.random.seed(3) or type(np.random.randint(7)).__name__",
              "np.random.seed(3) or np.random.randint(7, dtype=np.int16)",
              "np.random.seed(4) or np.random.randint(0, 2**32, size=3, dtype=np.uint32)",
              "np.random.seed(4) or np.random.randint(3, 4, size=3)",
              "np.random.seed(5) or (np.random.rand(3), np.random.randint(100, size=3), np.random.rand(2))",
              "np.random.seed(6) or np.random.random_sample((40, 40))[::13, ::13]",
              "np.random.seed(6) or np.random.random_sample(3000)[-3:]",
              "(np.random.seed(7), np.random.random_sample(1500), np.random.randint(0, 1000, size=4))[2]",
              "(np.random.seed(8), np.random.randn(3), np.random.randint(9, size=2))[2]",
              # the two engines in step: odd positions (Python's bulk path), skips, catch-ups
              "(np.random.seed(9), np.random.randint(0, 2**32, size=3, dtype=np.uint32), np.random.random_sample(1500)[-2:], np.random.random_sample(3))[2:]",
              "(np.random.seed(10), np.random.random_sample(2000), np.random.randn(3), np.random.random_sample(1100)[:3])[2:]",
              "(np.random.seed(11), np.random.randint(0, 2**32, size=1, dtype=np.uint32), np.random.rand(2), np.random.randint(0, 2**32, size=1, dtype=np.uint32), np.random.random_sample(1200)[:2])[4]",
              "(np.random.seed(12), np.random.randint(0, 2**32, size=1, dtype=np.uint32), np.random.random_sample())[2]",
              "(np.random.seed(13), np.random.rand(1), np.random.seed(13), np.random.rand(1))[3]",
              # bulk normals from the core: its rejections' outputs counted, an odd count's
              # spare normal handed back, then every kind of draw stays in step
              "np.random.seed(14) or np.random.standard_normal(3000)[::997]",
              "(np.random.seed(15), np.random.standard_normal(1025)[-2:], np.random.randn(3), np.random.random_sample(3))[1:]",
              "(np.random.seed(16), np.random.randn(1), np.random.standard_normal((40, 40))[-1, -3:], np.random.randint(100, size=3))[1:]",
              "(np.random.seed(17), np.random.randn(1101)[:2], np.random.random_sample(1500)[-2:], np.random.normal(2.0, 0.5, 1200)[-2:])[1:]",
              "np.random.randint(5, 5)", "np.random.randint(0, 300, dtype=np.uint8)",
              "np.random.randint(0, 3, dtype=np.float32)"):
        add(e)
    # shapes and joining
    for e in ("np.expand_dims(a, 0)", "np.expand_dims(a, -1)", "np.expand_dims(a, (0, 2))",
              "np.expand_dims(a, 3)", "np.expand_dims(big, 1).shape", "np.expand_dims(big, 1)[3, 0, :4]",
              "np.concatenate([a, a])", "np.concatenate([a, a], axis=1)",
              "np.concatenate([a, f], axis=-1)", "np.concatenate([a, a], axis=None)",
              "np.concatenate([a, m3])", "np.concatenate([a, a.T])", "np.concatenate([big, big]).sum()",
              "np.concatenate([big, big], axis=1)[1, 62:66]",
              "np.stack([a, a])", "np.stack([a, a], axis=-1)", "np.stack([a, a.T])",
              "np.vstack((a[0], a[1]))", "np.vstack([a, a])", "np.hstack([a, a])",
              "np.hstack([np.arange(2), np.arange(3)])", "np.moveaxis(m3, 0, -1).shape",
              "np.swapaxes(m3, 0, 2)", "np.squeeze(np.zeros((1, 3, 1)), axis=0).shape",
              "np.tile(a, 2)", "np.tile(a, (2, 1))", "np.tile(np.arange(3), (2, 1, 2))",
              "np.tile(big, (2, 1)).shape", "np.tile(big, (1, 2))[1, 60:68]",
              "np.diff(a)", "np.diff(a, axis=0)", "np.diff(m3, n=2)", "np.diff(b)", "np.diff(u8)",
              "np.diff(a, prepend=0)", "np.diff(a, append=[[9], [9]])", "np.diff(big, axis=1)[:2, :3]",
              "np.diff(fl)", "np.clip(a, 1, 4)", "np.clip(f, -1, None)", "np.clip(i8, -5, 5)",
              "np.clip(big, -3, 3).sum()", "a.clip(2, 3)", "a.reshape((3, 2), order='F')",
              "m3.reshape(4, -1, order='F')", "a.flatten(order='F')", "a.ravel(order='F')",
              "big.reshape((64, 32), order='F')[:2, :3]", "np.reshape(a, (3, 2), order='F')"):
        add(e)
    # sorting, arg-reductions, scans, var/std
    for e in ("np.sort(fl)", "np.sort(m3, axis=0)", "np.sort(a[::-1])", "np.sort(a, axis=None)",
              "np.sort(bigi, axis=1)[:2, :5]", "np.sort(big, axis=0)[:3, :4]", "np.argsort(fl)",
              "np.argsort(np.array([3, 1, 2, 1]))", "sorted_inplace(m3[:, ::-1], 1)",
              "np.argmax(a)", "np.argmax(m3, axis=1)", "np.argmin(m3, axis=-1)", "np.argmax(fl)",
              "np.argmin(np.array([2.0, 1.0, 1.0]))", "np.argmax(b)",
              "np.argmax(a, axis=0, keepdims=True)", "np.argmax(big)", "np.argmax(big, axis=0)[:8]",
              "np.argmin(bigi, axis=1)[:8]", "a.argmax()", "np.argmax(np.array([]))",
              "np.cumsum(a)", "np.cumsum(a, axis=0)", "np.cumsum(m3, axis=1)", "np.cumsum(i8)",
              "np.cumsum(f, axis=1)", "np.cumsum(h)", "np.cumprod(np.array([1, 2, 3, 4]))",
              "np.cumsum(big, axis=0)[-1, :4]", "np.cumsum(big)[-3:]",
              "np.cumsum(bigi, axis=1)[:2, -2:]", "np.cumsum(b)", "a.cumsum()",
              "np.cumsum(a, axis=1, out=np.zeros((2, 3)))", "np.argmax(a, axis=1, out=np.zeros(2, dtype=np.int64))",
              "np.std(f, axis=0, out=np.zeros(3, dtype=np.float32))",
              "np.var(a)", "np.var(f)", "np.var(f, axis=0)", "np.std(a, axis=1)",
              "np.var(m3, axis=(0, 2))", "np.std(a, ddof=1)", "np.var(f, keepdims=True)",
              "np.var(big)", "np.std(big, axis=1)[:3]", "a.var()", "a.std(axis=0)"):
        add(e)
    # take, take_along_axis, apply_along_axis, index helpers
    for e in ("np.take(a, [0, 2])", "np.take(a, [[0, 1], [2, 2]], axis=1)", "np.take(m3, 1, axis=2)",
              "np.take(a, -1)", "np.take(a, [7])", "a.take([1])",
              "np.take(big, [0, 2], axis=1)[:5]", "np.take(big, np.arange(10, 20), axis=1).sum(axis=1)[:4]",
              "np.take_along_axis(a, np.array([[2], [0]]), axis=1)",
              "np.take_along_axis(m3, np.argsort(m3, axis=2)[:, :, ::-1], axis=2)",
              "np.take_along_axis(a, np.array([[1, 0, 1]]), axis=0)",
              "np.take_along_axis(big, np.argsort(big, axis=1), axis=1)[:2, :4]",
              "np.apply_along_axis(np.sum, 1, a)", "np.apply_along_axis(lambda r: r * 2, 0, a)",
              "np.apply_along_axis(lambda r: np.vstack((r, r + 1)), 1, a)",
              "np.apply_along_axis(lambda r: r[::-1], 2, m3)",
              "np.triu_indices(3)", "np.triu_indices(3, 1)", "np.triu_indices(2, -1, 3)",
              "np.tril_indices(3)", "np.triu_indices_from(a)", "np.tril_indices_from(a, 1)",
              "np.nonzero(a)", "np.where(a > 2)", "np.flatnonzero(a % 2)", "np.argwhere(a > 3)",
              "np.nonzero(big > 16)[1][:5]", "a.nonzero()"):
        add(e)
    # einsum
    for e in ("np.einsum('ij->ji', a)", "np.einsum('ij', a)", "np.einsum('ij,jk->ik', a, a.T)",
              "np.einsum('ij,jk', a, a.T)", "np.einsum('kli,klj->ij', m3, m3)",
              "np.einsum('bij,bjk->bik', m3, m3.transpose(0, 2, 1))", "np.einsum('ij->', a)",
              "np.einsum('ij->j', f)", "np.einsum('i,i->', np.arange(3), np.arange(3))",
              "np.einsum('i,j->ij', np.arange(2), np.arange(3))", "np.einsum('ij,ij->i', f, g)",
              "np.einsum('ij,jk->ik', f, g.T)", "np.einsum('ij,jk,kl->il', a, a.T, a)",
              "np.einsum('kli,klj->ij', big.reshape(2, 16, 64), big.reshape(2, 16, 64))[:2, :3]",
              "np.einsum('ij,kj->ik', big, big)[:2, :2]"):
        add(e)
    return out
