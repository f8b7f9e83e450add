"""The input rules of the Python API, one table: each row is a call a numpy user makes, what
probdml 0.1.0 did with it, and the exception it raises now. A wrong type is a TypeError, a wrong
value a ValueError, and the message names the argument as the Python signature spells it (the
scalar rules are probdml-py/src/arguments.rs, the array rules python/probdml/_arrays.py).

The second table holds calls that 0.1.0 refused (or crashed on) and that scipy accepts; their
expected values come from numpy and scipy, not from the package."""

import warnings

import numpy as np
import pytest
from scipy.special import ive

import probdml.laplace.exact
from probdml import hib, laplace, metrics, nivmf, special, triplet, vmf

MU = np.array([1.0, 0.0, 0.0, 0.0])
D = vmf.VonMisesFisher(MU, 50.0)
N = nivmf.NonIsotropicVmf(MU, [1.0, 2.0, 3.0, 4.0])
EMB = np.random.default_rng(0).standard_normal((20, 4))
LAB = np.arange(20) % 4
V = np.ones(4)

# (call, what 0.1.0 did, the exception now, the argument its message names)
RULES = [
    ("vmf.log_norm_const(3, None)", "returned nan", TypeError, "kappa"),
    ("special.log_bessel_i(None, 1.0)", "returned nan", TypeError, "nu"),
    ("vmf.log_norm_const(3, [1 + 1j])", "ValueError", TypeError, "kappa"),
    ("vmf.log_norm_const(['3'], 1.0)", "ValueError", TypeError, "dim"),
    ("vmf.log_norm_const(3.7, 1.0)", "ValueError (not naming the element)", ValueError, "dim"),
    ("vmf.log_norm_const(2**70, 1.0)", "ValueError 'got dtype object'", ValueError, "dim"),
    ("vmf.VonMisesFisher(MU, None)", "TypeError from float(), no argument named", TypeError, "kappa"),
    ("vmf.VonMisesFisher(MU, '50')", "accepted, kappa = 50.0", TypeError, "kappa"),
    ("vmf.VonMisesFisher(MU, np.complex128(50 + 1j))", "accepted, kappa = 50.0", TypeError, "kappa"),
    ("vmf.VonMisesFisher(MU, np.array([50.0, 1.0]))", "TypeError from float(), no argument named", TypeError, "kappa"),
    ("vmf.VonMisesFisher(2 * MU, 1.0)", "ValueError, no advice", ValueError, "mu"),
    ("vmf.VonMisesFisher.fit(2 * np.eye(4))", "ValueError, no advice", ValueError, "samples"),
    ("vmf.VonMisesFisher.fit(np.eye(4), method=None)", "ValueError", TypeError, "method"),
    ("vmf.VonMisesFisher.fit(np.eye(4), method=b'mle')", "ValueError", TypeError, "method"),
    ("vmf.VonMisesFisher.fit(np.eye(4), method='MLE')", "ValueError", ValueError, "method"),
    ("vmf.log_density(MU, MU, None)", "TypeError from float(), no argument named", TypeError, "kappa"),
    ("vmf.kappa_sra(3, 0.5, newton_steps=2.5)", "ValueError", TypeError, "newton_steps"),
    ("vmf.kappa_sra(3, 0.5, newton_steps=None)", "TypeError from int(), no argument named", TypeError, "newton_steps"),
    ("D.rvs(size=2**70)", "OverflowError", ValueError, "size"),
    ("D.rvs(size=-1)", "ValueError", ValueError, "size"),
    ("D.rvs(size=2.5)", "ValueError", TypeError, "size"),
    ("D.rvs(size=3.0)", "accepted as 3", TypeError, "size"),
    ("D.rvs(size=True)", "ValueError", TypeError, "size"),
    ("D.rvs(size='3')", "ValueError", TypeError, "size"),
    ("D.rvs(size=(2, -1))", "TypeError from int(), no argument named", ValueError, "size"),
    ("D.rvs(seed=1.5)", "accepted as seed 1", TypeError, "seed"),
    ("D.rvs(seed='7')", "accepted as seed 7", TypeError, "seed"),
    ("D.rvs(seed=-1)", "ValueError", ValueError, "seed"),
    ("D.rvs(seed=2**64)", "ValueError", ValueError, "seed"),
    ("N.rvs(seed=-1)", "ValueError", ValueError, "seed"),
    ("N.rvs(size=2**70)", "OverflowError", ValueError, "size"),
    ("nivmf.kl_vmf(MU, None, MU, 1.0)", "TypeError from float(), no argument named", TypeError, "kappa_z"),
    ("nivmf.log_ppk_vmf(MU, MU, gamma='1')", "accepted, gamma = 1.0", TypeError, "gamma"),
    ("nivmf.proxy_nca_loss(EMB, LAB, EMB[:4], seed=-1)", "OverflowError", ValueError, "seed"),
    ("nivmf.proxy_nca_loss(EMB, LAB, EMB[:4], samples=2.5)", "ValueError", TypeError, "samples"),
    ("nivmf.proxy_nca_loss(EMB, LAB, EMB[:4], temperature=None)", "TypeError from float(), no argument named", TypeError, "temperature"),
    ("nivmf.proxy_nca_loss(EMB, LAB, EMB[:4], distance=3)", "ValueError", TypeError, "distance"),
    ("nivmf.proxy_nca_loss(EMB, LAB.astype(np.uint64) + np.uint64(2**63), EMB[:4])", "ValueError naming -9223372036854776000", ValueError, "labels"),
    ("hib.match_probability(MU, V, MU, V, None, 1.0)", "TypeError from float(), no argument named", TypeError, "a"),
    ("hib.match_probability(MU, V, MU, V, 1.0, 1.0, n_samples=2.5)", "ValueError", TypeError, "n_samples"),
    ("hib.match_probability(MU, V, MU, V, 1.0, 1.0, seed=0)", "an 8-draw estimate", ValueError, "seed"),
    ("hib.self_mismatch(MU, V, 1.0, 1.0, n_samples=8, seed=2**64)", "ValueError", ValueError, "seed"),
    ("hib.vib_loss(MU, V, MU, V, MU, MU, 'no', 1.0, 1.0, 1.0)", "accepted as is_match=True", TypeError, "is_match"),
    ("hib.vib_loss(MU, V, MU, V, MU, MU, True, 1.0, 1.0, None)", "TypeError from float(), no argument named", TypeError, "beta"),
    ("triplet.log_likelihood(MU, V, MU, V, MU, V, None)", "TypeError from float(), no argument named", TypeError, "margin"),
    ("triplet.vmf_kl(3.7, 1.0)", "accepted as dim 3", TypeError, "dim"),
    ("triplet.vmf_kl(-3, 1.0)", "OverflowError", ValueError, "dim"),
    ("triplet.gaussian_prior_variance(None)", "TypeError from int(), no argument named", TypeError, "dim"),
    ("probdml.laplace.exact.output_variance(np.eye(8), 3.7, [1.0])", "truncated to dim 3, then a mismatch error", TypeError, "dim"),
    ("laplace.log_marginal_likelihood(None, MU, V, 1.0)", "TypeError from float(), no argument named", TypeError, "log_likelihood"),
    ("metrics.recall_at_k(EMB, LAB, 1.5)", "ValueError", TypeError, "k"),
    ("metrics.recall_at_k(EMB, LAB, None)", "TypeError from int(), no argument named", TypeError, "k"),
    ("metrics.recall_at_k(EMB, LAB, 2**70)", "OverflowError", ValueError, "k"),
    ("metrics.recall_at_k(EMB, LAB, 0)", "ValueError", ValueError, "k"),
    ("metrics.map_at_k(EMB, LAB, 0)", "ValueError", ValueError, "k"),
    ("metrics.recall_at_k(EMB, LAB.astype(np.uint64) + np.uint64(2**63), 1)", "ValueError naming a wrapped, negative label", ValueError, "labels"),
    ("metrics.recall_at_k(EMB, LAB, 1, threads=-1)", "ValueError", ValueError, "threads"),
    ("metrics.recall_at_k(EMB, LAB, 1, distance=3)", "TypeError 'int' object is not an instance of 'str'", TypeError, "distance"),
    ("metrics.evaluate_retrieval(EMB, LAB, ks=[1, 2.5])", "ValueError", TypeError, "ks"),
    ("metrics.evaluate_retrieval(EMB, LAB, ks=[0])", "ValueError", ValueError, "ks"),
    ("metrics.expected_calibration_error([0.5], [True], bins=None)", "TypeError from int(), no argument named", TypeError, "bins"),
    ("metrics.expected_calibration_error([0.5], [True], bins=0)", "ValueError", ValueError, "bins"),
    ("metrics.auroc(id_scores=None, ood_scores=[3.0])", "ValueError 'must be finite: element 0 is NaN'", TypeError, "id_scores"),
    ("metrics.auroc(y_true=[0, 2], y_score=[0.1, 0.2])", "no such form", ValueError, "y_true"),
]


@pytest.mark.parametrize("call,before,error,arg", RULES, ids=[r[0] for r in RULES])
def test_input_rule(call, before, error, arg):
    namespace = {**globals()}
    # Warnings are recorded, not raised: a ComplexWarning raised as an exception would hide a
    # coercion (numpy's complex `__float__` warns, then drops the imaginary part).
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(error) as raised:
            eval(call, namespace)
    assert not caught, [str(w.message) for w in caught]
    assert type(raised.value) is error
    assert f"`{arg}`" in str(raised.value), str(raised.value)


def test_off_sphere_rows_say_to_normalise():
    with pytest.raises(ValueError, match=r"`samples`: row 0 .*normalise the rows"):
        vmf.VonMisesFisher.fit(2 * np.eye(4))
    with pytest.raises(ValueError, match=r"`x`.*normalise"):
        D.logpdf(2 * np.eye(4))


@pytest.mark.parametrize("name", ["auroc", "auprc", "roc_curve"])
def test_ood_metrics_refuse_positional_scores_saying_how_to_call(name):
    # scikit-learn's roc_auc_score(y_true, y_score) takes labels first: a positional call would
    # score the labels as in-distribution scores. 0.1.0 accepted it.
    for twin in (metrics, metrics.exact):
        with pytest.raises(TypeError, match=rf"keyword arguments only.*{name}\(id_scores=\.\.\., ood_scores=\.\.\.\).*y_true=\.\.\., y_score=\.\.\."):
            getattr(twin, name)([0, 0, 1], [0.1, 0.2, 0.9])


def test_ood_metrics_take_scikit_learns_form():
    from fractions import Fraction

    from sklearn.metrics import average_precision_score

    y = np.array([0, 1, 0, 1, 1, 0])
    s = np.array([0.1, 0.8, 0.35, 0.4, 0.9, 0.5])
    ids, oods = s[y == 0], s[y == 1]
    # Mann–Whitney: P(s_ood > s_id) + ½ P(s_ood = s_id), counted exactly (8/9).
    pairs = sum(Fraction(1) if o > i else Fraction(1, 2) if o == i else Fraction(0) for o in oods for i in ids)
    want = float(pairs / (len(ids) * len(oods)))
    for twin in (metrics, metrics.exact):
        assert twin.auroc(y_true=y, y_score=s) == want
        assert twin.auroc(y_true=y.astype(bool), y_score=s) == want
        assert twin.auprc(y_true=y, y_score=s) == twin.auprc(id_scores=ids, ood_scores=oods)
        assert twin.auprc(y_true=y, y_score=s) == pytest.approx(average_precision_score(y, s), abs=1e-15)


def scipy_log_norm_const(dim, kappa):
    nu = dim / 2 - 1
    return nu * np.log(kappa) - dim / 2 * np.log(2 * np.pi) - (np.log(ive(nu, kappa)) + kappa)


def float32_unit_rows(n, dim):
    # What F.normalize(torch.randn(n, dim), dim=1) gives: rows normalised in float32.
    x = np.random.default_rng(1).standard_normal((n, dim)).astype(np.float32)
    return x / np.linalg.norm(x, axis=1, keepdims=True).astype(np.float32)


@pytest.mark.parametrize("twin", [vmf, vmf.exact])
def test_float32_unit_rows_are_accepted(twin):
    x32 = float32_unit_rows(500, 32)
    assert x32.dtype == np.float32
    assert np.abs(np.linalg.norm(x32.astype(np.float64), axis=1) - 1).max() > 1e-12 * np.sqrt(32)
    unit = x32.astype(np.float64) / np.linalg.norm(x32.astype(np.float64), axis=1, keepdims=True)
    d = twin.VonMisesFisher(x32[0], 5.0)
    # The rows are used on the sphere (renormalised in float64): κ μ̂ᵀx̂ + ln C_M(κ).
    want = 5.0 * unit[:10] @ unit[0] + scipy_log_norm_const(32, 5.0)
    assert np.max(np.abs(d.logpdf(x32[:10]) - want)) < 1e-12
    fitted = twin.VonMisesFisher.fit(x32)
    mean = unit.sum(axis=0)
    assert np.max(np.abs(fitted.mu - mean / np.linalg.norm(mean))) < 1e-12


def test_tuple_sizes_give_size_plus_dim():
    for size, shape in [(None, (4,)), (5, (5, 4)), ((2, 3), (2, 3, 4)), ((), (4,)), ((0, 3), (0, 3, 4))]:
        assert D.rvs(size=size, seed=0).shape == shape
        assert N.rvs(size=size, seed=0).shape == shape
    # The draws are the same rows as a flat draw of the same count, reshaped.
    assert np.array_equal(D.rvs(size=(2, 3), seed=7).reshape(6, 4), D.rvs(size=6, seed=7))


def test_a_numpy_generator_seeds_the_draws():
    # As scipy's `random_state`: a seed is drawn from the Generator, which advances.
    seed = int(np.random.default_rng(3).integers(0, 2**64, dtype=np.uint64))
    assert np.array_equal(D.rvs(size=4, seed=np.random.default_rng(3)), D.rvs(size=4, seed=seed))
    assert np.array_equal(N.rvs(size=4, seed=np.random.default_rng(3)), N.rvs(size=4, seed=seed))
    rng = np.random.default_rng(3)
    assert not np.array_equal(D.rvs(size=4, seed=rng), D.rvs(size=4, seed=rng))


@pytest.mark.parametrize("call", [
    lambda labels: metrics.recall_at_k(EMB, labels, 1),
    lambda labels: nivmf.proxy_nca_loss(EMB, labels, EMB[:4]),
])
def test_uint64_labels_beyond_int64_are_reported_as_given(call):
    # 0.1.0 cast them to int64, where 2**63 + 3 wraps to a negative label, and reported that.
    labels = LAB.astype(np.uint64)
    labels[3] = np.uint64(2**63 + 3)
    with pytest.raises(ValueError, match=r"^argument `labels`: element 3 = 9223372036854775811 is out of range"):
        call(labels)
