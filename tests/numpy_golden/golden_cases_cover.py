"""Golden expressions for the NumPy names the public NKI corpora use that the first two case
files do not reach (imported by golden_cases): ``flip``, ``broadcast_to``, ``pad``, ``tril``/
``triu``, ``outer``, ``kron``, ``split``, ``fromfunction``, ``put_along_axis``, ``round``,
``nanmean``, ``median``, ``percentile``, ``unique``, ``count_nonzero``, ``linalg.norm``,
``vectorize``, ``errstate``, ``typing.NDArray`` ... on small arrays and on 1024+-element ones
(``big``, ``bigi`` from golden_cases_more: core-backed under the stand-in).

tests/python/numpy_coverage.test.js checks that every ``np.*`` name the repository's kernels
and docs (and a local corpus, when present) use appears in some case here or in the other case
files.
"""

SETUP_COVER = """
import numpy.typing
import scipy.special as sps
nanf = np.array([[1.0, np.nan, 3.0], [np.nan, np.nan, np.nan]], dtype=np.float32)
q = np.array([0.8147237, 9.754e-05, 12.5], dtype=np.float32)

def put_along(put, arr, idx, values, axis):
    arr = arr.copy()
    put(arr, idx, values, axis)
    return arr

def saved_and_loaded(save, load, arr):
    save("/tmp/_cover.npy", arr)
    return load("/tmp/_cover.npy")

def written_and_read(fromfile, arr, dtype):
    with open("/tmp/_cover.bin", "wb") as f:
        f.write(arr.tobytes())
    return fromfile("/tmp/_cover.bin", dtype=dtype)

def rs_sequence(rs):
    return (rs.rand(2), rs.randint(0, 100, 3), rs.randn(3), rs.random_sample(1200)[-2:],
            rs.normal(size=2))

def global_untouched():
    np.random.seed(20)
    first = np.random.rand(2)
    np.random.seed(20)
    np.random.RandomState(21).rand(1500)
    return first, np.random.rand(2)

def state_round_trip(get_state, set_state):
    np.random.seed(22)
    np.random.randn(3)
    saved = get_state()
    a = (np.random.randn(3), np.random.rand(1500)[-2:])
    set_state(saved)
    return a + (np.random.randn(3), np.random.rand(1500)[-2:])

def restored(rs):
    rs.rand(5)
    saved = rs.get_state(legacy=False)
    a = rs.randn(4)
    rs.set_state(saved)
    return a, rs.randn(4)

def shuffled(rng, x):
    rng.shuffle(x)
    return x

def printed(fn, **options):
    with np.printoptions(**options):
        return str(fn()), repr(fn())

def errstate_value():
    before = np.geterr()
    with np.errstate(divide="raise"):
        inside = np.geterr()["divide"]
    return inside, np.geterr() == before
"""


def cover_cases():
    out = []
    add = out.append
    for e in ("np.flip(a)", "np.flip(a, 0)", "np.flip(a, 1)", "np.flip(m3, (0, 2))",
              "np.flip(np.arange(4))", "np.flip(a, 2)", "np.flip(big, 0)[:2, :4]",
              "np.flip(bigi).sum()", "np.fliplr(a)", "np.flipud(a)",
              "np.broadcast_to(np.arange(3), (2, 3))", "np.broadcast_to(5, (2, 2))",
              "np.broadcast_to(a[:, :1], (2, 4))", "np.broadcast_to(a, (3,))",
              "np.broadcast_to(a, (4, 2, 3)).sum(axis=0)", "np.broadcast_to(big[0], (64, 64)).sum()",
              "np.ascontiguousarray(a.T)", "np.ascontiguousarray(5)",
              "np.ascontiguousarray([1, 2], dtype=np.float32)",
              "np.ascontiguousarray(a.T).strides",
              "np.pad(a, 1)", "np.pad(a, ((1, 0), (0, 2)))", "np.pad(f, (2, 1), constant_values=9)",
              "np.pad(a, ((1, 0), (0, 2)), constant_values=((5, 6), (7, 8)))",
              "np.pad(np.arange(4), 3, mode='edge')", "np.pad(np.arange(4), 3, mode='reflect')",
              "np.pad(np.arange(4), 5, mode='symmetric')", "np.pad(np.arange(4), 5, mode='wrap')",
              "np.pad(a, ((0, 1),), mode='edge')", "np.pad(big, ((0, 2), (0, 0))).shape",
              "np.pad(big, ((0, 2), (0, 0)))[-3:, :3]", "np.pad(a, -1)",
              "np.tril(a)", "np.tril(a, -1)", "np.triu(a)", "np.triu(a, 1)", "np.tril(m3)",
              "np.tril(np.ones((4, 4), dtype=np.float32))", "np.triu(np.arange(3))",
              "np.tril(bigi).sum()", "np.triu(big, 5).sum()", "np.tri(3, 4, 1)",
              "np.outer([1, 2], [3, 4, 5])", "np.outer(f, g[0])", "np.outer(a, np.arange(2.0))",
              "np.kron(np.eye(2), np.ones((2, 2)))", "np.kron([1, 2], [1, 10, 100])",
              "np.kron(a, np.array([[1], [2]]))",
              "np.split(np.arange(6), 3)", "np.split(m3, [1, 3], axis=2)", "np.split(a, 2, axis=1)",
              "np.array_split(np.arange(7), 3)", "np.split(np.arange(6), 4)",
              "np.indices((2, 3))", "np.fromfunction(lambda i, j: i * 10 + j, (2, 3))",
              "np.fromfunction(lambda i, j: i == j, (3, 3), dtype=int)",
              "np.fromfunction(lambda i, j, k: (i == j).astype(np.uint8), (2, 2, 3), "
              "dtype=np.uint8)",
              "put_along(np.put_along_axis, np.zeros((2, 3)), np.array([[1], [2]]), 9.0, 1)",
              "put_along(np.put_along_axis, a, np.argmax(a, axis=0)[None], -1, 0)",
              "put_along(np.put_along_axis, np.arange(5), np.array([4, 0]), 7, None)",
              "np.round(np.array([0.125, 2.5, -1.55, 3.5]), 1)", "np.round(f, 1)",
              "np.round(np.array([1234.5, -15.0]), -1)", "np.round(2.5)", "np.round(a)",
              "np.round(np.array([15, 25, -35]), -1)", "np.around(q, 3)", "np.round(np.float32(2.675), 2)",
              "np.round(big / 7, 2)[:2, :5]",
              "np.nanmean(nanf)", "np.nanmean(nanf, axis=1)", "np.nanmean(nanf, axis=0)",
              "np.nanmean(a)", "np.nanmean(nanf, axis=1, keepdims=True)",
              "np.nanmean(np.where(big > 10, np.nan, big), axis=1)[:6]",
              "np.nansum(nanf)", "np.nanmax(fl)", "np.nanmin(nanf, axis=1)",
              "np.count_nonzero(a)", "np.count_nonzero(m3 % 3, axis=1)",
              "np.count_nonzero(b, keepdims=True, axis=0)", "np.count_nonzero(bigi > 500)",
              "np.median([3, 1, 2, 4])", "np.median(a)", "np.median(m3, axis=1)", "np.median(f)",
              "np.median(fl)", "np.median(a, axis=0, keepdims=True)", "np.median(big, axis=1)[:5]",
              "np.percentile([1, 2, 3, 4, 5.0], [10, 50, 95])", "np.percentile(a, 50)",
              "np.percentile(m3, 30, axis=2)", "np.percentile([0.5, 0.25, 3.0], 99)",
              "np.percentile(a, 101)", "np.quantile(np.arange(10.0), 0.25)",
              "np.unique([3, 1, 2, 3, 1])", "np.unique(m3 % 5)", "np.unique(fl)",
              "np.unique([3, 1, 2, 3, 1], return_counts=True)",
              "np.unique([3, 1, 2, 3, 1], return_index=True, return_inverse=True)",
              "np.unique(np.array([True, False, True]))", "np.unique(bigi)[:10]",
              "np.unique(bigi[bigi != -1]).size",
              "np.linalg.norm(np.array([3.0, 4.0]))", "np.linalg.norm(a)", "np.linalg.norm(f)",
              "np.linalg.norm(f, axis=1)", "np.linalg.norm(f, ord=1, axis=0)",
              "np.linalg.norm(f, ord=np.inf)", "np.linalg.norm(a, 'fro')",
              "np.linalg.norm(np.arange(4.0), 3)", "np.linalg.norm(a, axis=1, keepdims=True)",
              "np.linalg.norm(big)", "np.linalg.norm(np.array([1, 0, 2]), 0)",
              "np.vectorize(lambda x, y: x + y)(np.arange(3), 1)",
              "np.vectorize(lambda x: x * 2.5, otypes=[np.float32])(a)",
              "np.vectorize(lambda x: x > 1)(f)",
              "errstate_value()", "np.typing.NDArray[np.float32] is not None",
              "np.add.accumulate(np.arange(5))", "np.add.accumulate(a, axis=1)",
              "np.maximum.accumulate(np.array([1, 3, 2, 5, 4]))",
              "np.multiply.accumulate(np.arange(1, 6))",
              "np.maximum.accumulate(f, axis=0)"):
        add(e)
    # legacy RandomState objects, dirichlet, get_state / set_state: NumPy's MT19937 stream
    for e in ("np.random.RandomState(3).random_sample(4)", "np.random.RandomState(3).rand(2, 2)",
              "np.random.RandomState(3).random_sample()", "np.random.RandomState(4).randn(5)",
              "np.random.RandomState(4).standard_normal(3000)[::700]",
              "np.random.RandomState(5).randint(0, 10, 6)",
              "np.random.RandomState(5).randint(0, 256, 4, dtype=np.uint8)",
              "np.random.RandomState(6).uniform(-1, 1, 3)", "np.random.RandomState(6).normal(2, 3, (2, 2))",
              "np.random.RandomState(7).choice(10, 4)", "np.random.RandomState(7).choice(10, 4, replace=False)",
              "np.random.RandomState(7).choice([1, 2, 3], 5, p=[0.1, 0.3, 0.6])",
              "np.random.RandomState(8).permutation(8)", "shuffled(np.random.RandomState(9), np.arange(7))",
              "np.random.RandomState(10).random_sample(1500)[-3:]",
              "rs_sequence(np.random.RandomState(11))",
              "np.random.RandomState(12).dirichlet([1.0, 2.0, 3.0])",
              "np.random.RandomState(12).dirichlet([0.5, 0.25, 4.0], size=3)",
              "np.random.RandomState(12).dirichlet((10.0, 10.0), size=(2, 2))",
              "np.random.RandomState(12).dirichlet([1.0, 0.0])", "np.random.RandomState(12).dirichlet([[1.0]])",
              "np.random.seed(13) or np.random.dirichlet([2.0, 3.0], 4)",
              "(np.random.seed(14), np.random.randn(1), np.random.dirichlet([0.3, 0.7], 2), np.random.rand(2))[2:]",
              "global_untouched()", "state_round_trip(np.random.get_state, np.random.set_state)",
              "np.random.seed(15) or np.random.get_state()[0]",
              "np.random.seed(15) or np.random.get_state()[1][:4]",
              "np.random.seed(15) or np.random.get_state()[2:]",
              "(np.random.seed(16), np.random.randn(1), np.random.get_state())[2][2:]",
              "(np.random.seed(16), np.random.rand(3), np.random.get_state())[2][1][-3:]",
              "np.random.seed(17) or sorted(np.random.get_state(legacy=False))",
              "np.random.seed(17) or np.random.get_state(legacy=False)['state']['pos']",
              "np.random.RandomState(18).get_state()[1][620:]",
              "restored(np.random.RandomState(19))", "np.random.set_state(('PCG64', 0, 0))",
              "np.random.set_state(('MT19937', [1, 2, 3], 0))",
              "type(np.random.RandomState(0)).__name__"):
        add(e)
    # the Generator API over PCG64: seeded draws are NumPy's
    for e in ("np.random.default_rng(0).random(4)", "np.random.default_rng(0).random()",
              "np.random.default_rng(1).random(3, dtype=np.float32)",
              "np.random.default_rng(2).standard_normal(6)", "np.random.default_rng(2).standard_normal()",
              "np.random.default_rng(3).standard_normal(3000)[::500]",
              "np.random.default_rng(4).normal(2.0, 3.0, size=(2, 3))",
              "np.random.default_rng(4).normal(0.0, [1.0, 10.0, 100.0])",
              "np.random.default_rng(5).uniform(-1.0, 1.0, 5)", "np.random.default_rng(5).uniform(size=2)",
              "np.random.default_rng(6).integers(0, 10, 8)", "np.random.default_rng(6).integers(5)",
              "np.random.default_rng(6).integers(-2**40, 2**40, 3)",
              "np.random.default_rng(6).integers(0, 7, 4, dtype=np.int32)",
              "np.random.default_rng(6).integers(1, 6, 5, endpoint=True)",
              "np.random.default_rng(6).integers(0, 2**64 - 1, 2, dtype=np.uint64)",
              "np.random.default_rng(7).choice(10, 5)", "np.random.default_rng(7).choice([1, 2, 3], size=4, p=[0.2, 0.3, 0.5])",
              "np.random.default_rng(7).choice(100, 10, replace=False)",
              "np.random.default_rng(7).choice(20000, 1000, replace=False)[:5]",
              "np.random.default_rng(7).choice(np.arange(10.0) * 2, 3)",
              "np.random.default_rng(8).permutation(10)",
              "np.random.default_rng(8).permutation(np.arange(12).reshape(3, 4))",
              "shuffled(np.random.default_rng(9), np.arange(10))",
              "shuffled(np.random.default_rng(9), list(range(8)))",
              "np.random.default_rng([1, 2, 3]).random(2)", "np.random.default_rng(2**100 + 7).random(2)",
              "np.random.default_rng(np.random.default_rng(0)).random()",
              "np.random.default_rng(0).integers(3, 2)", "np.random.default_rng(-1)",
              "np.random.default_rng(0).choice(3, 4, replace=False)",
              "np.random.SeedSequence(0).generate_state(4)",
              "np.random.Generator(np.random.PCG64(11)).random(2)",
              # the other names the corpora use, named in a case each
              "np.copy(a)", "np.dot(f, g.T)", "np.matmul(f, g.T)", "np.repeat(a, 2, axis=0)",
              # stacks of matrices (the nc_matmul doc test's golden): broadcast leading axes
              "np.matmul(np.arange(24.0).reshape(2, 3, 4), np.arange(40.0).reshape(2, 4, 5))",
              "np.arange(24, dtype=np.float32).reshape(2, 3, 4).transpose(0, 2, 1) @ np.ones((2, 3, 2))",
              "np.matmul(np.arange(12).reshape(3, 4), np.arange(40).reshape(2, 4, 5))",
              "np.matmul(np.arange(8.0).reshape(2, 1, 1, 4), np.arange(24.0).reshape(3, 4, 2))",
              "np.matmul(np.arange(4.0), np.arange(40.0).reshape(2, 4, 5))",
              "np.matmul(np.arange(24.0).reshape(2, 3, 4), np.arange(4.0))",
              "np.matmul(np.ones((2, 3, 4)), np.ones((2, 5, 2)))",
              "np.matmul(np.ones((2, 3, 4)), np.ones((3, 4, 2)))",
              "np.frombuffer(bytes([1, 2, 3, 4]), dtype=np.uint8)",
              "saved_and_loaded(np.save, np.load, f)", "written_and_read(np.fromfile, f, np.float32)",
              "np.testing.assert_allclose(f, f + 1e-9)", "np.testing.assert_allclose(f, g)",
              "np.testing.assert_array_equal(a, a.copy())", "np.testing.assert_array_equal(a, a + 1)",
              "np.random.seed(3) or np.random.random(3)", "np.random.seed(3) or np.random.uniform(-2, 2, 3)",
              "np.errstate(divide='ignore') is not None",
              # the legacy generator's shuffles and samples
              "np.random.seed(0) or np.random.permutation(10)",
              "np.random.seed(0) or np.random.permutation(np.arange(12).reshape(4, 3))",
              "np.random.seed(1) or shuffled(np.random, np.arange(8))",
              "np.random.seed(1) or shuffled(np.random, list(range(6)))",
              "np.random.seed(1) or np.random.shuffle(list(range(4)))",
              "np.random.seed(2) or np.random.choice(10, 5)",
              "np.random.seed(2) or np.random.choice(10, 4, replace=False)",
              "np.random.seed(2) or np.random.choice([1, 2, 3], size=5, p=[0.2, 0.3, 0.5])",
              "np.random.seed(2) or np.random.choice(range(1, 9), size=2, replace=False)",
              "np.random.seed(2) or np.random.choice(5)",
              "(np.random.seed(3), np.random.choice(np.arange(5.0), 3), np.random.randn(2))[2]",
              "np.random.seed(4) or np.random.choice(3, 4, replace=False)"):
        add(e)
    # scipy.special (a real SciPy makes the goldens: Debian's python3-scipy)
    for e in ("sps.softmax(f)", "sps.softmax(f, axis=1)", "sps.softmax(a)", "sps.softmax([1.0, 2.0, 3.0])",
              "sps.softmax(big, axis=1)[:2, :3]", "sps.logsumexp(f)", "sps.logsumexp(f, axis=0)",
              "sps.logsumexp(f, axis=1, keepdims=True)", "sps.logsumexp(np.array([-np.inf, -np.inf]))",
              "sps.logsumexp(a)", "sps.expit(f)", "sps.expit(a)", "sps.expit(0.5)", "sps.expit(h)",
              "sps.erf(f)", "sps.erf(0.5)", "sps.erf(a)", "sps.erf(np.float32(0.25))", "sps.erf(big)[0, :4]"):
        add(e)
    # printing: summarisation past threshold, wrapping at linewidth, print options
    for e in ("q", "q * 1000", "big", "bigi", "big / 7", "np.arange(2000)", "np.arange(30) * 1.5",
              "np.arange(100).reshape(4, 25)", "np.zeros((3, 400, 5))", "np.arange(1500).reshape(3, 500) / 3",
              "np.arange(256 * 1024, dtype=np.float32).reshape(256, 1024) % 97 / 7",
              "np.array([1e-5, 1.0, np.nan, -np.inf], dtype=np.float32)", "np.array([True, True])",
              "np.linspace(0, 1, 40, dtype=np.float16)", "np.array([[1e10, 2], [3, -4]])",
              "np.array([1.0, 0.0, -0.0])", "np.array([np.nan, np.nan])", "np.array([1e300, 1e-300])",
              "np.arange(12, dtype=np.int8)", "np.array([-1.5, 2.25e-3])", "np.array(7.25, dtype=np.float32)",
              "np.array([0.99999999, 1e-9])", "x3 * 1.1", "np.eye(30)", "nanf"):
        add(f"str({e})")
        add(f"repr({e})")
    for e in ("printed(lambda: np.array([1e-5, 1.23456, 100.0]), precision=3, suppress=True)",
              "printed(lambda: np.arange(12).reshape(3, 4), threshold=5, edgeitems=1)",
              "printed(lambda: np.array([1.5, 2.25]), sign=' ')",
              "printed(lambda: np.array([1.5, -2.25]), sign=' ')",
              "printed(lambda: np.array([1e-9, -2.25]), sign='+')",
              "printed(lambda: np.array([1.5, 2.25]), floatmode='fixed', precision=4)",
              "printed(lambda: np.array([1.5, 2.25, 3]), floatmode='maxprec_equal')",
              "printed(lambda: np.array([0.1, 1 / 3]), floatmode='unique')",
              "printed(lambda: np.arange(12, dtype=np.int8), linewidth=20)",
              "printed(lambda: np.array([np.nan, 1.0, np.inf]), nanstr='NaN', infstr='Inf')",
              "printed(lambda: big, edgeitems=2, linewidth=40)",
              "np.get_printoptions()['threshold']",
              "np.array2string(np.arange(5.0), separator=', ')",
              "np.array2string(q, precision=2)"):
        add(e)
    return out


#: Names the public corpora use that the stand-in does not cover yet, and why (the coverage test
#: checks each still raises the stand-in's clear error, so an entry goes when its name lands).
NOT_COVERED = {}

#: NumPy >= 2 results where Debian's NumPy 1.24 differs (merged into golden_cases.NUMPY2).
NUMPY2_COVER = {}
