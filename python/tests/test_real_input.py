"""Complex input is refused by every array argument of the package, as scikit-learn refuses it:
numpy would turn it into floats by dropping the imaginary parts with only a ComplexWarning
(``metrics.auroc(id_scores=[1+1j, 2], ood_scores=…)`` would score the real parts). Each exported
function is called once with valid arguments, then once per array argument with that argument made
complex (same real parts, imaginary part 1): the call must raise TypeError (the package's rule: a
wrong type is a TypeError, a wrong value a ValueError) naming the argument."""

import warnings

import numpy as np
import pytest

import probdml
from probdml import hib, laplace, metrics, nivmf, special, triplet, vmf

MU3 = np.array([0.0, 0.6, 0.8])
X3 = np.array([[0.0, 0.6, 0.8], [0.6, 0.0, 0.8], [0.8, 0.6, 0.0]])
GAUSS = {"mu1": [0.1, 0.2], "var1": [0.3, 0.4], "mu2": [0.0, -0.1], "var2": [0.2, 0.5]}
TRIPLET = {"mu_a": [0.7], "var_a": [0.5], "mu_p": [-0.4], "var_p": [0.8], "mu_n": [1.3], "var_n": [0.3]}
BATCH = {k: np.tile(v, (2, 2)) for k, v in TRIPLET.items()}
SCORES = {"id_scores": [0.1, 0.4, 0.2], "ood_scores": [0.35, 0.8]}
EMB = np.array([[0.0, 1.0], [0.2, 0.9], [1.0, 0.1], [0.9, 0.3], [0.5, 0.5]])
RETRIEVAL = {"embeddings": EMB, "labels": [0, 0, 1, 1, 1]}
QD = {**RETRIEVAL, "queries": EMB[:2] + 0.05, "query_labels": [0, 1]}
VIB = {**GAUSS, "noise1": np.ones((2, 2)), "noise2": np.zeros((3, 2)), "is_match": True, "a": 2.0, "b": 1.0, "beta": 0.1}
PROXY = {"embeddings": 2 * X3[:2], "labels": [0, 2], "proxies": 3 * X3}
LAYER = {"weight_precision": np.ones((2, 3)), "bias_precision": [1.0, 2.0], "features": [0.5, -1.0, 2.0]}
DENSE = {"precision": np.eye(8) * 2.0, "dim": 2, "features": [0.5, -1.0, 2.0]}

# (name, function, keyword arguments, the arguments that are arrays): every function each module
# exports, both twins, and the methods of the distribution classes that take arrays.
CASES = [
    ("special.log_bessel_i", special.log_bessel_i, {"nu": [0.5, 1.0], "x": [2.0, 3.0]}),
    ("special.bessel_i_ratio", special.bessel_i_ratio, {"nu": [0.5, 1.0], "x": [2.0, 3.0]}),
    ("special.log_ndtr", special.log_ndtr, {"z": [-1.0, 2.0]}),
    ("special.exact.log_bessel_i", special.exact.log_bessel_i, {"nu": [0.5], "x": [2.0]}),
    ("special.exact.bessel_i_ratio", special.exact.bessel_i_ratio, {"nu": [0.5], "x": [2.0]}),
    ("special.exact.log_ndtr", special.exact.log_ndtr, {"z": [-1.0]}),
    *[(f"vmf.{t}{name}", getattr(m, name), {"dim": [3, 4], "kappa": [1.0, 2.0]})
      for t, m in (("", vmf), ("exact.", vmf.exact))
      for name in ("log_norm_const", "mean_resultant_length", "mean_resultant_length_complement", "entropy", "kl_to_uniform")],
    *[(f"vmf.{t}kappa_mle", m.kappa_mle, {"dim": [3, 4], "rbar": [0.5, 0.6]}) for t, m in (("", vmf), ("exact.", vmf.exact))],
    *[(f"vmf.{t}kappa_sra", m.kappa_sra, {"dim": [3], "rbar": [0.5]}) for t, m in (("", vmf), ("exact.", vmf.exact))],
    *[(f"vmf.{t}mean_resultant", m.mean_resultant, {"samples": X3}) for t, m in (("", vmf), ("exact.", vmf.exact))],
    *[(f"vmf.{t}log_density", m.log_density, {"x": X3, "mu": MU3, "kappa": 2.0}) for t, m in (("", vmf), ("exact.", vmf.exact))],
    *[(f"vmf.{t}VonMisesFisher", m.VonMisesFisher, {"mu": MU3, "kappa": 2.0}) for t, m in (("", vmf), ("exact.", vmf.exact))],
    *[(f"vmf.{t}VonMisesFisher.logpdf", m.VonMisesFisher(MU3, 2.0).logpdf, {"x": X3}) for t, m in (("", vmf), ("exact.", vmf.exact))],
    *[(f"vmf.{t}VonMisesFisher.pdf", m.VonMisesFisher(MU3, 2.0).pdf, {"x": X3}) for t, m in (("", vmf), ("exact.", vmf.exact))],
    *[(f"vmf.{t}VonMisesFisher.fit", m.VonMisesFisher.fit, {"samples": X3}) for t, m in (("", vmf), ("exact.", vmf.exact))],
    *[(f"triplet.{t}moments", m.moments, TRIPLET) for t, m in (("", triplet), ("exact.", triplet.exact))],
    *[(f"triplet.{t}log_likelihood", m.log_likelihood, {**TRIPLET, "margin": 0.5}) for t, m in (("", triplet), ("exact.", triplet.exact))],
    *[(f"triplet.{t}nll_gradient", m.nll_gradient, {**BATCH, "margin": 0.5}) for t, m in (("", triplet), ("exact.", triplet.exact))],
    *[(f"triplet.{t}gaussian_kl", m.gaussian_kl, {"mu": [0.1, 0.2], "var": [0.3, 0.4], "prior_var": 0.5}) for t, m in (("", triplet), ("exact.", triplet.exact))],
    *[(f"nivmf.{t}kl_vmf", m.kl_vmf, {"mu_z": MU3, "kappa_z": 2.0, "mu_p": X3[0], "kappa_p": 3.0}) for t, m in (("", nivmf), ("exact.", nivmf.exact))],
    *[(f"nivmf.{t}log_ppk_vmf", m.log_ppk_vmf, {"nu_z": 2 * MU3, "nu_p": X3[1], "gamma": 0.5}) for t, m in (("", nivmf), ("exact.", nivmf.exact))],
    ("nivmf.bhattacharyya_distance", nivmf.bhattacharyya_distance, {"nu_z": 2 * MU3, "nu_p": X3[1]}),
    ("nivmf.expected_likelihood_distance", nivmf.expected_likelihood_distance, {"nu_z": 2 * MU3, "nu_p": X3[1]}),
    *[(f"nivmf.{t}{name}", getattr(m, name), {"x": X3, "mu": MU3, "kappas": [1.0, 2.0, 3.0]})
      for t, m in (("", nivmf), ("exact.", nivmf.exact)) for name in ("log_density", "log_density_heuristic")],
    *[(f"nivmf.{t}proxy_nca_loss", m.proxy_nca_loss, {**PROXY, "distance": "nivmf", "concentrations": np.ones((3, 3))})
      for t, m in (("", nivmf), ("exact.", nivmf.exact))],
    ("nivmf.NonIsotropicVmf", nivmf.NonIsotropicVmf, {"mu": MU3, "kappas": [1.0, 2.0, 3.0]}),
    ("nivmf.NonIsotropicVmf.logpdf", nivmf.NonIsotropicVmf(MU3, [1.0, 2.0, 3.0]).logpdf, {"x": X3}),
    *[(f"hib.{t}match_probability", m.match_probability, {**GAUSS, "a": 2.0, "b": 1.0}) for t, m in (("", hib), ("exact.", hib.exact))],
    ("hib.match_probability_moment_matched", hib.match_probability_moment_matched, {**GAUSS, "a": 2.0, "b": 1.0}),
    *[(f"hib.{t}self_mismatch", m.self_mismatch, {"mu": [0.1, 0.2], "var": [0.3, 0.4], "a": 2.0, "b": 1.0}) for t, m in (("", hib), ("exact.", hib.exact))],
    *[(f"hib.{t}kl_to_standard_normal", m.kl_to_standard_normal, {"mu": [0.1, 0.2], "var": [0.3, 0.4]}) for t, m in (("", hib), ("exact.", hib.exact))],
    *[(f"hib.{t}vib_loss", m.vib_loss, VIB) for t, m in (("", hib), ("exact.", hib.exact))],
    ("laplace.output_variance", laplace.output_variance, LAYER),
    ("laplace.log_marginal_likelihood", laplace.log_marginal_likelihood,
     {"log_likelihood": -1.0, "theta": [0.5, 1.0], "hessian_diagonal": [2.0, 3.0], "prior_precision": 0.5}),
    ("laplace.optimal_prior_precision", laplace.optimal_prior_precision, {"theta": [0.5, 1.0], "hessian_diagonal": [2.0, 3.0]}),
    ("laplace.exact.output_variance", laplace.exact.output_variance, DENSE),
    ("laplace.exact.log_marginal_likelihood", laplace.exact.log_marginal_likelihood,
     {"log_likelihood": -1.0, "theta": [0.5, 1.0], "hessian": np.eye(2), "prior_precision": 0.5}),
    ("laplace.exact.optimal_prior_precision", laplace.exact.optimal_prior_precision, {"theta": [0.5, 1.0], "hessian": np.eye(2)}),
    *[(f"metrics.{t}{name}", getattr(m, name), SCORES) for t, m in (("", metrics), ("exact.", metrics.exact)) for name in ("auroc", "auprc", "roc_curve")],
    *[(f"metrics.{t}expected_calibration_error", m.expected_calibration_error, {"confidence": [0.2, 0.9, 1.0], "correct": [True, False, True]})
      for t, m in (("", metrics), ("exact.", metrics.exact))],
    *[(f"metrics.{t}sparsification_curve", m.sparsification_curve, {"uncertainty": [0.1, 0.9, 0.3], "performance": [1.0, 0.0, 1.0]})
      for t, m in (("", metrics), ("exact.", metrics.exact))],
    *[(f"metrics.{t}{name}", getattr(m, name), {**task, "k": 1})
      for t, m in (("", metrics), ("exact.", metrics.exact)) for name in ("recall_at_k", "precision_at_k", "map_at_k") for task in (RETRIEVAL, QD)],
    *[(f"metrics.{t}{name}", getattr(m, name), task)
      for t, m in (("", metrics), ("exact.", metrics.exact)) for name in ("map_at_r", "r_precision") for task in (RETRIEVAL, QD)],
    *[(f"metrics.{t}evaluate_retrieval", m.evaluate_retrieval, {**task, "ks": [1, 2]})
      for t, m in (("", metrics), ("exact.", metrics.exact)) for task in (RETRIEVAL, QD)],
]


def array_arguments(kwargs):
    return [k for k, v in kwargs.items() if isinstance(v, (list, np.ndarray))]


def test_the_cases_cover_every_exported_function():
    # Every function in the __all__ of each module and of its exact twins, and the distribution
    # classes (their constructors take arrays); the result NamedTuples are left out.
    exported = set()
    for module in (special, vmf, triplet, nivmf, hib, laplace, metrics):
        name = module.__name__.removeprefix("probdml.")
        for owner, prefix in ((module, name), (module.exact, name + ".exact")):
            for n in owner.__all__:
                obj = getattr(owner, n)
                if n in ("VonMisesFisher", "NonIsotropicVmf") or (callable(obj) and not isinstance(obj, type)):
                    exported.add(f"{prefix}.{n}")
    covered = {name for name, _, _ in CASES}
    scalars_only = {"triplet.vmf_kl", "triplet.gaussian_prior_variance"}
    assert exported - covered == scalars_only


@pytest.mark.parametrize("name,function,kwargs", CASES, ids=[c[0] for c in CASES])
def test_complex_arrays_are_refused_naming_the_argument(name, function, kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a ComplexWarning anywhere would be a failure
        function(**kwargs)  # the valid call
        arrays = array_arguments(kwargs)
        assert arrays, name
        for arg in arrays:
            bad = {**kwargs, arg: np.asarray(kwargs[arg]) + 1j}
            with pytest.raises(TypeError, match=f"^argument `{arg}` must be an array of real numbers, got complex dtype complex128$"):
                function(**bad)
            # A complex dtype with zero imaginary parts is refused too, as scikit-learn does.
            bad = {**kwargs, arg: np.asarray(kwargs[arg]).astype(np.complex64)}
            with pytest.raises(TypeError, match=f"`{arg}`"):
                function(**bad)


def test_complex_scores_are_not_scored_on_their_real_parts():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(TypeError, match="`id_scores` must be an array of real numbers, got complex dtype complex128"):
            metrics.auroc(id_scores=np.array([1 + 1j, 2]), ood_scores=[0.5, 3.0])
    assert probdml.metrics.auroc(id_scores=np.array([1.0, 2.0]), ood_scores=[0.5, 3.0]) == 0.5


def test_ragged_and_non_numeric_arrays_are_refused_naming_the_argument():
    for call, arg in [
        (lambda: metrics.auroc(id_scores=[[0.1, 0.2], [0.3]], ood_scores=[0.5]), "id_scores"),
        (lambda: metrics.recall_at_k([[0.0, 1.0], [2.0]], [0, 0], 1), "embeddings"),
        (lambda: special.log_ndtr(["a"]), "z"),
        (lambda: vmf.log_norm_const([[3], [4, 5]], 1.0), "dim"),
    ]:
        with pytest.raises(TypeError, match=f"^argument `{arg}` must be an array of real numbers"):
            call()
