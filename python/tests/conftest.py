"""Shared settings: hypothesis runs a modest, seeded number of examples so that the Python step
stays short in CI (`derandomize`: the same examples every run, as the Rust proofs' fixed seeds)."""

from hypothesis import HealthCheck, settings

settings.register_profile(
    "probdml",
    max_examples=40,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("probdml")
