//! `probdml`: train and evaluate the papers' models (chapter 09, feature "tch").
//!
//! ```text
//! probdml train      --method lam-online --split arccos --approximation fixed --epochs 20 --out runs/x
//! probdml eval       --checkpoint runs/x
//! probdml posthoc    --checkpoint runs/det --out runs/posthoc
//! probdml diagnose   --checkpoint runs/posthoc   # sample-free OOD scores
//! probdml reproduce  [--paper]        # the LAM Table 2 rows beside the paper's
//! ```

use clap::{Args, Parser, Subcommand};
use probdml::train::config::{
    parse_approximation, parse_split, DatasetChoice, Method, TrainConfig,
};
use probdml::train::data::default_data_dir;
use probdml::train::evaluate::{mean_std, Metrics, MetricsSummary};
use probdml::train::report::{format_table, PaperMethod, TableRow};
use probdml::train::run::{self, select_device, RunSummary};
use probdml::train::{TrainError, TrainResult};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "probdml",
    version,
    about = "Train and evaluate probabilistic metric-learning models (LAM, MC dropout, ensembles) on Fashion-MNIST vs MNIST"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Train one model, evaluate it, write checkpoint, metrics.json and plots into --out.
    Train(TrainArgs),
    /// Evaluate a checkpoint folder written by `train`: metrics.json and plots.
    Eval(EvalArgs),
    /// LAM post-hoc on a deterministic checkpoint: Hessian pass, then evaluation.
    Posthoc(PosthocArgs),
    /// Sample-free OOD scores of a checkpoint (feature norm, output norm, posterior spread).
    Diagnose(EvalArgs),
    /// Train and evaluate the table's methods and print them beside LAM Table 2.
    Reproduce(ReproduceArgs),
}

#[derive(Args)]
struct PosthocArgs {
    /// A deterministic checkpoint folder written by `train --method deterministic`.
    #[arg(long)]
    checkpoint: PathBuf,
    /// GGN split: euclidean | arccos.
    #[arg(long, default_value = "arccos")]
    split: String,
    /// PSD approximation: positive | fixed | full.
    #[arg(long, default_value = "fixed")]
    approximation: String,
    /// Output folder of the lam-posthoc checkpoint, metrics and plots.
    #[arg(long)]
    out: PathBuf,
    /// Prior precision of the last-layer weights (default: the fan-in F, see TrainConfig).
    #[arg(long)]
    prior_precision: Option<f64>,
    /// Tempering β of the Hessian.
    #[arg(long, default_value_t = 1.0)]
    tempering: f64,
    #[command(flatten)]
    common: Common,
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

#[derive(Args)]
struct TrainArgs {
    /// deterministic | lam-posthoc | lam-online | mc-dropout | ensemble
    #[arg(long, default_value = "lam-online")]
    method: String,
    /// GGN split: euclidean | arccos (LAM).
    #[arg(long, default_value = "arccos")]
    split: String,
    /// PSD approximation: positive | fixed | full (LAM).
    #[arg(long, default_value = "fixed")]
    approximation: String,
    /// fashion-mnist | synthetic
    #[arg(long, default_value = "fashion-mnist")]
    dataset: String,
    /// Latent dimension D.
    #[arg(long, default_value_t = 3)]
    latent_dim: usize,
    #[arg(long, default_value_t = 20)]
    epochs: usize,
    /// Batch size (default: 64 for lam-online, 256 otherwise, as chapter 09).
    #[arg(long)]
    batch: Option<usize>,
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Learning rate (RMSprop).
    #[arg(long, default_value_t = 1e-3)]
    lr: f64,
    /// Weight samples per test image.
    #[arg(long, default_value_t = 16)]
    eval_samples: usize,
    /// Weight samples per online-LAM step.
    #[arg(long, default_value_t = 1)]
    train_samples: usize,
    /// Prior precision of the last-layer weights (default: the fan-in F, see TrainConfig).
    #[arg(long)]
    prior_precision: Option<f64>,
    /// Tempering β of the post-hoc Hessian.
    #[arg(long, default_value_t = 1.0)]
    tempering: f64,
    /// Use only the first N training images.
    #[arg(long)]
    train_limit: Option<usize>,
    /// Use only the first N test and OOD images.
    #[arg(long)]
    test_limit: Option<usize>,
    /// Output folder (checkpoint, metrics.json, plots/).
    #[arg(long)]
    out: PathBuf,
    /// Continue from the checkpoint in --out.
    #[arg(long)]
    resume: bool,
    #[command(flatten)]
    common: Common,
}

#[derive(Args)]
struct EvalArgs {
    /// Checkpoint folder written by `train`.
    #[arg(long)]
    checkpoint: PathBuf,
    /// Where to write metrics.json and plots (default: the checkpoint folder).
    #[arg(long)]
    out: Option<PathBuf>,
    #[command(flatten)]
    common: Common,
}

#[derive(Args)]
struct ReproduceArgs {
    /// The full protocol: deterministic, MC dropout, LAM post-hoc and online, 20 epochs, 5 seeds.
    #[arg(long)]
    paper: bool,
    /// Epochs (default: 5 for the short run, 20 with --paper).
    #[arg(long)]
    epochs: Option<usize>,
    /// Seeds per method (default: 1, 5 with --paper).
    #[arg(long)]
    seeds: Option<u64>,
    /// Comma-separated methods (default: lam-online; all four with --paper).
    #[arg(long)]
    methods: Option<String>,
    /// Latent dimension D.
    #[arg(long, default_value_t = 3)]
    latent_dim: usize,
    /// fashion-mnist | synthetic
    #[arg(long, default_value = "fashion-mnist")]
    dataset: String,
    /// Use only the first N training images.
    #[arg(long)]
    train_limit: Option<usize>,
    /// Use only the first N test and OOD images.
    #[arg(long)]
    test_limit: Option<usize>,
    /// Output folder (one subfolder per method and seed).
    #[arg(long, default_value = "runs/reproduce")]
    out: PathBuf,
    #[command(flatten)]
    common: Common,
}

fn setup(common: &Common) -> TrainResult<(tch::Device, PathBuf)> {
    if let Some(t) = common.threads {
        if t < 1 {
            return Err(TrainError::config("threads", t, "must be >= 1"));
        }
        tch::set_num_threads(t);
    }
    let device = select_device(&common.device)?;
    let data = common.data.clone().unwrap_or_else(default_data_dir);
    Ok((device, data))
}

fn train_config(a: &TrainArgs) -> TrainResult<TrainConfig> {
    let method = Method::parse(&a.method)?;
    let config = TrainConfig {
        method,
        split: parse_split(&a.split)?,
        approximation: parse_approximation(&a.approximation)?,
        dataset: DatasetChoice::parse(&a.dataset)?,
        latent_dim: a.latent_dim,
        epochs: a.epochs,
        batch_size: a.batch.unwrap_or(TrainConfig::reference_batch_size(method)),
        learning_rate: a.lr,
        eval_samples: a.eval_samples,
        train_samples: a.train_samples,
        prior_precision: a
            .prior_precision
            .unwrap_or(TrainConfig::default().prior_precision),
        tempering: a.tempering,
        seed: a.seed,
        train_limit: a.train_limit,
        test_limit: a.test_limit,
        ..TrainConfig::default()
    };
    config.validate()?;
    Ok(config)
}

fn print_metrics(m: &Metrics) {
    match serde_json::to_string_pretty(m) {
        Ok(s) => println!("{s}"),
        Err(e) => eprintln!("cannot print metrics: {e}"),
    }
}

fn paper_key(method: Method) -> Option<PaperMethod> {
    match method {
        Method::Deterministic => Some(PaperMethod::Deterministic),
        Method::McDropout => Some(PaperMethod::McDropout),
        Method::LamPosthoc => Some(PaperMethod::LamPosthoc),
        Method::LamOnline => Some(PaperMethod::LamOnline),
        Method::Ensemble => Some(PaperMethod::Ensemble),
    }
}

fn label(config: &TrainConfig) -> String {
    match config.method {
        Method::LamOnline | Method::LamPosthoc => format!(
            "{} ({}, {})",
            config.method.name(),
            probdml::train::config::split_name(config.split),
            probdml::train::config::approximation_name(config.approximation)
        ),
        m => m.name().to_string(),
    }
}

fn reproduce(a: &ReproduceArgs) -> TrainResult<()> {
    let (device, data) = setup(&a.common)?;
    let epochs = a.epochs.unwrap_or(if a.paper { 20 } else { 5 });
    let seeds = a.seeds.unwrap_or(if a.paper { 5 } else { 1 });
    if seeds == 0 {
        return Err(TrainError::config("seeds", 0, "must be >= 1"));
    }
    let methods: Vec<Method> = match &a.methods {
        Some(list) => list
            .split(',')
            .map(|s| Method::parse(s.trim()))
            .collect::<TrainResult<_>>()?,
        None if a.paper => vec![
            Method::Deterministic,
            Method::McDropout,
            Method::LamPosthoc,
            Method::LamOnline,
        ],
        None => vec![Method::LamOnline],
    };
    let dataset = DatasetChoice::parse(&a.dataset)?;
    let mut rows = Vec::new();
    let mut epoch_seconds = Vec::new();
    for &method in &methods {
        let mut runs: Vec<RunSummary> = Vec::new();
        for seed in 0..seeds {
            let config = TrainConfig {
                method,
                dataset,
                latent_dim: a.latent_dim,
                epochs,
                batch_size: TrainConfig::reference_batch_size(method),
                seed,
                train_limit: a.train_limit,
                test_limit: a.test_limit,
                ..TrainConfig::default()
            };
            let out = a.out.join(format!("{}-seed{seed}", method.name()));
            eprintln!(
                "== {} seed {seed}: {epochs} epochs on {:?} -> {}",
                label(&config),
                device,
                out.display()
            );
            let summary = if method == Method::LamPosthoc {
                // The paper's post-hoc model is the deterministic one plus a Laplace
                // approximation: train (or resume) the deterministic run, then the Hessian pass.
                let det = TrainConfig {
                    method: Method::Deterministic,
                    ..config.clone()
                };
                let det_out = a
                    .out
                    .join(format!("{}-seed{seed}", Method::Deterministic.name()));
                run::train_and_evaluate(&det, &data, &det_out, true, device)?;
                run::posthoc_from_checkpoint(
                    &det_out,
                    &out,
                    config.split,
                    config.approximation,
                    Some(config.prior_precision),
                    config.tempering,
                    &data,
                    device,
                )?
            } else {
                run::train_and_evaluate(&config, &data, &out, true, device)?
            };
            runs.push(summary);
        }
        let metrics: Vec<Metrics> = runs.iter().map(|r| r.metrics.clone()).collect();
        let summary: MetricsSummary = mean_std(&metrics)?;
        let secs = runs
            .iter()
            .map(|r| r.timing.mean_epoch_seconds)
            .sum::<f64>()
            / runs.len() as f64;
        epoch_seconds.push((label(&runs[0].config), secs, runs[0].config.batch_size));
        rows.push(TableRow {
            method: paper_key(method),
            label: label(&runs[0].config),
            summary,
        });
    }
    println!();
    println!("Fashion-MNIST (ID) vs MNIST (OOD), D = {}, {epochs} epochs, {seeds} seed(s), device {device:?}", a.latent_dim);
    println!("{}", format_table(&rows));
    println!("mean epoch time:");
    for (l, s, b) in &epoch_seconds {
        println!("  {l}: {s:.1} s (batch {b})");
    }
    Ok(())
}

fn real_main() -> TrainResult<()> {
    let cli = Cli::parse();
    match cli.command {
        Command::Train(a) => {
            let (device, data) = setup(&a.common)?;
            let config = train_config(&a)?;
            let summary = run::train_and_evaluate(&config, &data, &a.out, a.resume, device)?;
            print_metrics(&summary.metrics);
            let row = TableRow {
                method: paper_key(config.method),
                label: label(&config),
                summary: MetricsSummary::from(&summary.metrics),
            };
            println!("{}", format_table(&[row]));
            println!(
                "mean epoch time {:.1} s on {}",
                summary.timing.mean_epoch_seconds, summary.timing.device
            );
        }
        Command::Eval(a) => {
            let (device, data_dir) = setup(&a.common)?;
            let trained = run::load_trained(&a.checkpoint, device)?;
            let data = run::load_data(&trained.config, &data_dir)?;
            let out: &Path = a.out.as_deref().unwrap_or(&a.checkpoint);
            let metrics = run::evaluate_trained(&trained, &data, out, device)?;
            print_metrics(&metrics);
        }
        Command::Posthoc(a) => {
            let (device, data) = setup(&a.common)?;
            let summary = run::posthoc_from_checkpoint(
                &a.checkpoint,
                &a.out,
                parse_split(&a.split)?,
                parse_approximation(&a.approximation)?,
                a.prior_precision,
                a.tempering,
                &data,
                device,
            )?;
            print_metrics(&summary.metrics);
            let row = TableRow {
                method: paper_key(summary.config.method),
                label: label(&summary.config),
                summary: MetricsSummary::from(&summary.metrics),
            };
            println!("{}", format_table(&[row]));
        }
        Command::Diagnose(a) => {
            let (device, data_dir) = setup(&a.common)?;
            let trained = run::load_trained(&a.checkpoint, device)?;
            let data = run::load_data(&trained.config, &data_dir)?;
            let d = run::diagnose_ood(&trained, &data, device)?;
            match serde_json::to_string_pretty(&d) {
                Ok(s) => println!("{s}"),
                Err(e) => eprintln!("cannot print the diagnosis: {e}"),
            }
        }
        Command::Reproduce(a) => reproduce(&a)?,
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
    match real_main() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
