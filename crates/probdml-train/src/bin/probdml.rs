//! `probdml`: train and evaluate the papers' models (chapter 09, feature "tch").
//!
//! ```text
//! probdml train      --method lam-online --split arccos --approximation fixed --epochs 20 --out runs/x
//! probdml eval       --checkpoint runs/x
//! probdml posthoc    --checkpoint runs/det --out runs/posthoc
//! probdml diagnose   --checkpoint runs/posthoc   # sample-free OOD scores
//! probdml reproduce  [--paper]        # the LAM Table 2 rows beside the paper's
//! probdml summarise  --row LABEL=RUN,RUN ...
//! probdml figures    roc --out roc.svg LABEL=RUN,RUN ...   # also calibration, hib-steps,
//!                                                          # hib-embedding RUN
//! ```
//!
//! This file only parses the command line: each subcommand calls one function of
//! [`probdml_train::pipeline`]. Every failure is an error naming the flag or the file and the
//! rule (exit code 1); a bad flag value is refused by the parser with the possible values (exit
//! code 2). A panic would be a bug: it is caught, reported as one, and exits with code 70, never
//! with Rust's 101.

use clap::{Args, Parser, Subcommand};
use probdml::ggn::{Approximation, Split};
use probdml_train::config::{
    approximation_name, approximation_parser, split_name, split_parser, DataOptions,
    LaplaceOptions, MethodKind, ModelOptions, Protocol, Schedule, TrainConfig, TrainFlags,
    ValidConfig,
};
use probdml_train::figures::{write_figure, FigureKind};
use probdml_train::json;
use probdml_train::method::lam_posthoc::{PosthocHessian, PriorChoice};
use probdml_train::pipeline::evaluate::{diagnose_checkpoint, evaluate_checkpoint};
use probdml_train::pipeline::reproduce::{reproduce, ReproduceRequest};
use probdml_train::pipeline::summarise::{summarise, table_row};
use probdml_train::pipeline::{
    posthoc_from_checkpoint, train_and_evaluate, Environment, OutPolicy, PosthocOptions,
};
use probdml_train::protocol::Score;
use probdml_train::report::format_table;
use probdml_train::{TrainError, TrainResult};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "probdml",
    version,
    about = "Train and evaluate probabilistic metric-learning models (deterministic, MC dropout, LAM post-hoc and online, deep ensembles, HIB, ProxyNCA++, the Bayesian triplet loss, PFE) on Fashion-MNIST vs MNIST"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Train one model, evaluate it, write checkpoint, metrics.json and plots into --out.
    // Boxed: the configuration's flags make it several times the size of the other variants.
    Train(Box<TrainArgs>),
    /// Evaluate a checkpoint folder written by `train`: metrics.json and plots.
    Eval(EvalCmdArgs),
    /// LAM post-hoc on a deterministic checkpoint: Hessian pass, then evaluation.
    Posthoc(PosthocArgs),
    /// Sample-free OOD scores of a checkpoint (feature norm, output norm, posterior spread).
    Diagnose(EvalArgs),
    /// Train and evaluate the table's methods and print them beside LAM Table 2.
    Reproduce(ReproduceArgs),
    /// Summarise finished runs as one table: each row the mean ± sample std of its runs'
    /// metrics.json (seeds trained separately, e.g. side by side), no training.
    Summarise(SummariseArgs),
    /// HIB Tables 1 and 2 (verification AP, K-NN accuracy, Kendall τ of η) beside the paper's,
    /// from the `hib_tasks.json` of N-digit MNIST runs; no training.
    HibTables(HibTablesArgs),
    /// Draw a figure of the results chapter as SVG from finished runs' curves.json (roc,
    /// calibration: one curve per row, its first run), hib_embedding.json (hib-embedding: one
    /// run's clean and corrupt test embeddings) or hib_tasks.json and state.json (hib-steps: K-NN
    /// accuracy against training steps, one line per row); no training.
    Figures(FiguresArgs),
}

#[derive(Args)]
struct FiguresArgs {
    /// The figure: roc, calibration, hib-embedding or hib-steps.
    figure: String,
    /// The SVG file to write.
    #[arg(long)]
    out: PathBuf,
    /// roc, calibration: rows `LABEL=RUN[,RUN...]` as `summarise --row` takes them (each row's
    /// first run is drawn); hib-steps: the same rows, every run drawn; hib-embedding: one run
    /// folder.
    #[arg(required = true)]
    inputs: Vec<String>,
}

#[derive(Args)]
struct HibTablesArgs {
    /// Run folders of `train --dataset n-digit-mnist-2|3` (each with hib_tasks.json); the rows
    /// group them by N, D and method, one seed each.
    #[arg(required = true)]
    runs: Vec<PathBuf>,
}

#[derive(Args)]
struct SummariseArgs {
    /// One table row: `LABEL=RUN[,RUN...]`, the run folders (each with metrics.json and
    /// config.json) of the seeds to summarise; repeat for more rows.
    #[arg(long = "row", required = true)]
    rows: Vec<String>,
}

#[derive(Args)]
#[command(allow_negative_numbers = true)]
struct PosthocArgs {
    /// A deterministic checkpoint folder written by `train --method deterministic`.
    #[arg(long)]
    checkpoint: PathBuf,
    /// GGN split.
    #[arg(long, value_parser = split_parser(), default_value = split_name(LaplaceOptions::DEFAULT.split))]
    split: Split,
    /// PSD approximation.
    #[arg(long, value_parser = approximation_parser(), default_value = approximation_name(LaplaceOptions::DEFAULT.approximation))]
    approximation: Approximation,
    /// Output folder of the lam-posthoc checkpoint, metrics and plots (not --checkpoint).
    #[arg(long)]
    out: PathBuf,
    /// Replace a run already in --out.
    #[arg(long)]
    force: bool,
    /// Prior precision of the last-layer weights: a number, or `marglik` to maximise the
    /// last layer's Laplace evidence (default: the protocol's, else the checkpoint's).
    #[arg(long, value_parser = parse_prior)]
    prior_precision: Option<PriorChoice>,
    /// Tempering β of the Hessian.
    #[arg(long, default_value_t = LaplaceOptions::DEFAULT.tempering)]
    tempering: f64,
    /// Training protocol.
    #[arg(long, value_enum, default_value_t = TrainConfig::DEFAULT.protocol)]
    protocol: Protocol,
    /// The curvature: the GGN over the training set, or zero (the posterior is the prior).
    #[arg(long, value_enum, default_value = "ggn")]
    hessian: PosthocHessian,
    /// The uncertainty score (default: the protocol's).
    #[arg(long, value_enum)]
    score: Option<Score>,
    #[command(flatten)]
    common: Common,
}

/// `--prior-precision`: a positive number or `marglik`.
fn parse_prior(s: &str) -> Result<PriorChoice, String> {
    if s == "marglik" {
        return Ok(PriorChoice::Marglik);
    }
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok(PriorChoice::Fixed(v)),
        _ => Err(format!(
            "`{s}` is neither `marglik` nor a finite number > 0"
        )),
    }
}

#[derive(Args, Clone)]
struct Common {
    /// Data folder (default: <repo>/data, or $PROBDML_DATA).
    #[arg(long)]
    data: Option<PathBuf>,
    /// auto (CUDA if present), cpu, cuda or cuda:N.
    #[arg(long, default_value = "auto")]
    device: String,
    /// libtorch CPU threads (default: all cores).
    #[arg(long)]
    threads: Option<i32>,
}

/// `train`'s flags: the configuration's own (each default is the configuration's or its
/// method's, written once, [`TrainFlags`]), and the four whose default depends on the method or
/// the protocol.
#[derive(Args)]
#[command(allow_negative_numbers = true)]
struct TrainArgs {
    #[command(flatten)]
    config: TrainFlags,
    /// Batch size (default: 64 for lam-online, 256 otherwise, as chapter 09).
    #[arg(long)]
    batch: Option<usize>,
    /// Weight samples per test image (default: the protocol's, 16 for ours, 100 for reference).
    #[arg(long)]
    eval_samples: Option<usize>,
    /// Prior precision of the last-layer weights (default: the protocol's, else the fan-in F = 9216 of the last layer).
    #[arg(long)]
    prior_precision: Option<f64>,
    /// Factor of the learning rate per epoch, in (0, 1]; 1 keeps it constant (default: the
    /// protocol's, 0.95 for ours, e^-0.01 for reference).
    #[arg(long)]
    lr_decay: Option<f64>,
    /// Row blocks of each global batch, over which the backbone runs one at a time (default:
    /// one per rank). One process with --row-blocks N trains bit for bit as N ranks at --batch
    /// B/N (chapter 09); a multiple of the world size that divides the global batch.
    #[arg(long)]
    row_blocks: Option<usize>,
    /// Output folder (checkpoint, metrics.json, plots/).
    #[arg(long)]
    out: PathBuf,
    /// Continue from the checkpoint in --out.
    #[arg(long, conflicts_with = "force")]
    resume: bool,
    /// Replace a run already in --out.
    #[arg(long)]
    force: bool,
    #[command(flatten)]
    common: Common,
}

#[derive(Args)]
struct EvalArgs {
    /// Checkpoint folder written by `train`.
    #[arg(long)]
    checkpoint: PathBuf,
    /// Where to write the results (default: the checkpoint folder).
    #[arg(long)]
    out: Option<PathBuf>,
    #[command(flatten)]
    common: Common,
}

#[derive(Args)]
struct EvalCmdArgs {
    #[command(flatten)]
    eval: EvalArgs,
    /// Evaluate a LAM checkpoint under this uncertainty score instead of its own (e.g.
    /// `output-variance`); needs an --out other than the checkpoint, which gets the metrics and
    /// a config.json recording the score.
    #[arg(long, value_enum)]
    score: Option<Score>,
}

#[derive(Args)]
#[command(allow_negative_numbers = true)]
struct ReproduceArgs {
    /// Shorthand for --schedule paper.
    #[arg(long)]
    paper: bool,
    /// short: LAM online under both protocols, 5 epochs, 1 seed; paper: the 7 rows of LAM Table 2, BTL (both priors) and ProxyNCA++, 20 epochs, 5 seeds.
    #[arg(long, value_enum)]
    schedule: Option<Schedule>,
    /// Epochs (default: from the schedule).
    #[arg(long)]
    epochs: Option<usize>,
    /// Seeds per method (default: from the schedule).
    #[arg(long)]
    seeds: Option<u64>,
    /// The first seed: runs take seeds first-seed .. first-seed + seeds (shard a schedule's
    /// seeds over processes, each with its own --out; `summarise` joins them).
    #[arg(long, default_value_t = 0)]
    first_seed: u64,
    /// Comma-separated methods (default: from the schedule).
    #[arg(long, value_enum, value_delimiter = ',')]
    methods: Option<Vec<MethodKind>>,
    #[command(flatten)]
    model: ModelOptions,
    #[command(flatten)]
    data: DataOptions,
    /// Comma-separated training protocols; every method runs under each (default: short: ours,reference; paper: ours).
    #[arg(long, value_enum, value_delimiter = ',')]
    protocol: Option<Vec<Protocol>>,
    /// Output folder (one subfolder per method, protocol and seed: `<method>-seed<k>` for ours, `<method>-<protocol>-seed<k>` otherwise; runs found there are resumed).
    #[arg(long, default_value = "runs/reproduce")]
    out: PathBuf,
    /// A folder of the same schedule's runs over several seeds, made once by `reproduce --seeds N --out DIR`: their mean ± std and range are printed below this run's table (rows whose configuration DIR lacks say so). The last one given counts.
    #[arg(long, overrides_with = "seed_spread")]
    seed_spread: Option<PathBuf>,
    #[command(flatten)]
    common: Common,
}

impl Common {
    fn environment(&self) -> TrainResult<Environment> {
        Environment::new(&self.device, self.threads, self.data.clone())
    }
}

/// The configuration of `train`'s flags, validated once.
fn train_config(a: &TrainArgs) -> TrainResult<ValidConfig> {
    let mut base = a.config.config()?;
    base.optimiser.batch_size = a.batch.unwrap_or(base.method.row().batch);
    let protocol = base.protocol;
    let mut config = base.with_protocol(protocol);
    // Explicit flags win over the protocol's choices.
    if let Some(s) = a.eval_samples {
        config.evaluation.eval_samples = s;
    }
    if let Some(p) = a.prior_precision {
        config.laplace.prior_precision = p;
    }
    if let Some(d) = a.lr_decay {
        config.optimiser.lr_decay = d;
    }
    ValidConfig::new(config)
}

fn print_json<T: serde::Serialize>(value: &T) {
    match json::to_text(value, Path::new("<stdout>")) {
        Ok(s) => print!("{s}"),
        Err(e) => eprintln!("cannot print: {e}"),
    }
}

fn policy(resume: bool, force: bool) -> OutPolicy {
    match (resume, force) {
        (true, _) => OutPolicy::Resume,
        (false, true) => OutPolicy::Overwrite,
        (false, false) => OutPolicy::Fresh,
    }
}

/// Under `torchrun` (feature "distributed"): joins the process group, and a CUDA rank takes the
/// GPU of its `LOCAL_RANK`. Alone: `env` as it is.
fn joined(mut env: Environment) -> TrainResult<Environment> {
    env.device = probdml_train::data_parallel::join_from_env(env.device)?;
    Ok(env)
}

fn real_main() -> TrainResult<()> {
    match Cli::parse().command {
        Command::Train(a) => {
            let config = train_config(&a)?;
            let env = joined(a.common.environment()?)?;
            if let Some(blocks) = a.row_blocks {
                probdml_train::data_parallel::row_blocks::set_total(
                    blocks,
                    config.optimiser.batch_size,
                )?;
            }
            let summary = train_and_evaluate(&config, &a.out, policy(a.resume, a.force), &env)?;
            print_json(&summary.metrics);
            println!(
                "{}",
                format_table(&[table_row(&summary)], config.data.dataset)
            );
            println!(
                "mean epoch time {:.1} s on {}",
                summary.timing.mean_epoch_seconds, summary.timing.device
            );
        }
        Command::Eval(EvalCmdArgs { eval: a, score }) => {
            let env = joined(a.common.environment()?)?;
            print_json(&evaluate_checkpoint(
                &a.checkpoint,
                a.out.as_deref(),
                score,
                &env,
            )?);
        }
        Command::Posthoc(a) => {
            let env = joined(a.common.environment()?)?;
            let summary = posthoc_from_checkpoint(
                &a.checkpoint,
                &a.out,
                &PosthocOptions {
                    split: a.split,
                    approximation: a.approximation,
                    prior: a.prior_precision,
                    tempering: a.tempering,
                    protocol: a.protocol,
                    hessian: a.hessian,
                    score: a.score,
                },
                policy(false, a.force),
                &env,
            )?;
            print_json(&summary.metrics);
            println!(
                "{}",
                format_table(&[table_row(&summary)], summary.config.data.dataset)
            );
        }
        Command::Diagnose(a) => {
            let env = a.common.environment()?;
            let (d, path) = diagnose_checkpoint(&a.checkpoint, a.out.as_deref(), &env)?;
            print_json(&d);
            eprintln!("diagnosis written to {}", path.display());
        }
        Command::Reproduce(a) => {
            let schedule = match (a.paper, a.schedule) {
                (true, Some(Schedule::Short)) => {
                    return Err(TrainError::config(
                        "paper",
                        "--paper with --schedule short",
                        "--paper is --schedule paper: give one",
                    ))
                }
                (true, _) => Schedule::Paper,
                (false, s) => s.unwrap_or_default(),
            };
            let env = a.common.environment()?;
            let request = ReproduceRequest {
                schedule,
                epochs: a.epochs,
                seeds: a.seeds,
                first_seed: a.first_seed,
                methods: a.methods,
                protocols: a.protocol,
                model: a.model,
                data: a.data,
                out: a.out,
                seed_spread: a.seed_spread,
            };
            print!("{}", reproduce(&request, &env)?);
        }
        Command::Summarise(a) => println!("{}", summarise(&a.rows)?),
        Command::HibTables(a) => {
            let records = a
                .runs
                .iter()
                .map(|dir| probdml_train::hib_experiment::read_record(dir))
                .collect::<Result<Vec<_>, _>>()?;
            print!("{}", probdml_train::hib_experiment::hib_tables(&records)?);
        }
        Command::Figures(a) => {
            let kind = FigureKind::from_name(&a.figure)?;
            write_figure(kind, &a.inputs, &a.out)?;
            eprintln!("{} written to {}", kind.name(), a.out.display());
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .init();
    // A panic is a bug of this program, not a user error: report it as such (the default hook
    // has printed where it happened) and exit with EX_SOFTWARE, never with Rust's 101.
    match std::panic::catch_unwind(real_main) {
        Ok(Ok(())) => ExitCode::SUCCESS,
        Ok(Err(e)) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
        Err(_) => {
            eprintln!("internal error (a bug of probdml: please report it with the command line)");
            ExitCode::from(70)
        }
    }
}
