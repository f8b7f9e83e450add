#!/usr/bin/env bash
# HIB's experiment (Oh et al. 2019, §4; book chapter 10, "HIB Tables 1 and 2"): trains the
# paper's point embeddings (HIB's soft contrastive loss, σ = 0), HIB MoG-1 and MoG-2 on N-digit
# MNIST for each seed, and copies each run's config.json, metrics.json, hib_tasks.json and
# state.json (the epochs' losses; and the figures' curves.json and hib_embedding.json) into
# RECORD/<method>-n<N>-d<D>-seed<S>/ (the checkpoints stay in WORK). Then
# `probdml hib-tables RECORD/*` prints the tables.
#
#   bash scripts/hib-n-digit.sh RECORD WORK DIGITS DIM TRAIN TEST EPOCHS "SEEDS" [THREADS]
#
# e.g. the paper's scale for N = 2, D = 2: ... 2 2 100000 10000 EPOCHS "0 1 2". The binary is
# target/release/probdml (`bash scripts/cargo-tch.sh build --release --bin probdml`).
# Environment:
#   METHODS  the methods to train, of "point mog1 mog2 margin" (default: the paper's three;
#            margin is the deterministic method, the contrastive loss with a margin on the sphere)
#   MEANS    euclidean (default: ℝ^D, the paper's) or sphere (ℓ₂-normalised means)
#   LR       the learning rate (default: the program's)
#   LR_DECAY the learning rate's factor per epoch (default: the program's, 0.95; 1: constant)
#   BACKBONE reference (default: the LAM reference code's layout) or hib (HIB §4.1's two 5×5
#            convolutions, each followed by a pool); a hib run's folder names it
#   PAIRS    balanced (default) or all (every pair of a batch, `--hib-pairs all`); an all run's
#            folder names it
#   OPTIMISER rmsprop (default) or adam (`--optimiser adam`); an adam run's folder names it
#   BATCHES  shuffled (default) or two-streams (`--batch-sampler two-streams`, HIB §2.3: half of
#            each batch another image of a class in it); a two-streams run's folder names it
#   GAP      instance (default: every number in training and test) or number
#            (`--n-digit-gap number`, HIB Table 3: 70 % of the numbers in training, the rest
#            tested as unseen); a number run's folder names it
#   VIB_BETA the weight β of HIB's VIB regulariser (`--vib-beta`; default: the program's, 10⁻⁴;
#            0: none); a run of another β names it in its folder (…-beta0-…)
#   HIB_SAMPLES the samples K per component (`--hib-samples`; default: the program's, 8, the
#            paper's); a run of another K names it in its folder (…-k1-…)
#   VARIANCE_CAP clamp (default) or soft (`--hib-variance-cap soft`: ln σ² held below its cap
#            by a softplus, which passes a gradient); a soft run's folder names it (…-softcap-…)
#   DEVICE   cpu (default) or cuda
#   PROBDML  the binary (default: target/release/probdml)
#   RESUME   1: continue each run found in WORK up to EPOCHS (`--resume`: bit for bit what an
#            uninterrupted run of EPOCHS gives, the flags otherwise the same) instead of
#            replacing it (`--force`); a longer run of the same setting re-uses the shorter's epochs
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
record="$1" work="$2" digits="$3" dim="$4" train="$5" test="$6" epochs="$7" seeds="$8"
threads="${9:-2}"
methods="${METHODS:-point mog1 mog2}"
means="${MEANS:-euclidean}"
backbone="${BACKBONE:-reference}"
pairs="${PAIRS:-balanced}"
probdml="${PROBDML:-$root/target/release/probdml}"
device="${DEVICE:-cpu}"
start=--force
if [[ "${RESUME:-0}" == 1 ]]; then start=--resume; fi
common=(--backbone "$backbone")
if [[ -n "${LR:-}" ]]; then common+=(--lr "$LR"); fi
if [[ -n "${LR_DECAY:-}" ]]; then common+=(--lr-decay "$LR_DECAY"); fi
optimiser="${OPTIMISER:-rmsprop}"
common+=(--optimiser "$optimiser")
batches="${BATCHES:-shuffled}"
common+=(--batch-sampler "$batches")
gap="${GAP:-instance}"
common+=(--n-digit-gap "$gap")
hib=()
if [[ -n "${VIB_BETA:-}" ]]; then hib+=(--vib-beta "$VIB_BETA"); fi
if [[ -n "${HIB_SAMPLES:-}" ]]; then hib+=(--hib-samples "$HIB_SAMPLES"); fi
cap="${VARIANCE_CAP:-clamp}"
if [[ "$cap" != clamp ]]; then hib+=(--hib-variance-cap "$cap"); fi
suffix=""
if [[ "$means" != euclidean ]]; then suffix="-$means"; fi
if [[ "$pairs" != balanced ]]; then suffix+="-$pairs-pairs"; fi
if [[ "$backbone" != reference ]]; then suffix+="-$backbone-net"; fi
if [[ "$optimiser" != rmsprop ]]; then suffix+="-$optimiser"; fi
if [[ "$batches" != shuffled ]]; then suffix+="-$batches"; fi
if [[ "$gap" != instance ]]; then suffix+="-$gap-gap"; fi
if [[ -n "${VIB_BETA:-}" ]]; then suffix+="-beta$VIB_BETA"; fi
if [[ -n "${HIB_SAMPLES:-}" ]]; then suffix+="-k$HIB_SAMPLES"; fi
if [[ "$cap" != clamp ]]; then suffix+="-${cap}cap"; fi
mkdir -p "$record" "$work"
for seed in $seeds; do
    for method in $methods; do
        if [[ ${#hib[@]} -gt 0 && "$method" != mog* ]]; then
            echo "hib-n-digit: VIB_BETA, HIB_SAMPLES and VARIANCE_CAP apply to mog1 and mog2 only, not '$method'" >&2
            exit 2
        fi
        case "$method" in
            point) flags=(--method hib --hib-point --hib-means "$means" --hib-pairs "$pairs") ;;
            mog1) flags=(--method hib --hib-components 1 --hib-means "$means" --hib-pairs "$pairs" "${hib[@]}") ;;
            mog2) flags=(--method hib --hib-components 2 --hib-means "$means" --hib-pairs "$pairs" "${hib[@]}") ;;
            margin) flags=(--method deterministic) ;;
            *) echo "hib-n-digit: unknown method '$method' in METHODS" >&2; exit 2 ;;
        esac
        name="$method$suffix-n$digits-d$dim-seed$seed"
        "$probdml" train "${flags[@]}" "${common[@]}" --dataset "n-digit-mnist-$digits" \
            --train-limit "$train" --test-limit "$test" --latent-dim "$dim" \
            --epochs "$epochs" --batch 128 --eval-samples 8 --seed "$seed" \
            --device "$device" --threads "$threads" --out "$work/$name" "$start"
        mkdir -p "$record/$name"
        for file in config.json metrics.json hib_tasks.json curves.json hib_embedding.json state.json; do
            if [[ -f "$work/$name/$file" ]]; then cp "$work/$name/$file" "$record/$name/"; fi
        done
    done
done
