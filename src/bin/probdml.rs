//! `probdml`: train and evaluate the papers' models (chapter 09, feature "tch").
//!
//! ```text
//! probdml train      --method lam-online --split arccos --approximation fixed --epochs 20 --out runs/x
//! probdml eval       --checkpoint runs/x
//! probdml posthoc    --checkpoint runs/det --out runs/posthoc
//! probdml diagnose   --checkpoint runs/posthoc   # sample-free OOD scores
//! probdml reproduce  [--paper]        # the LAM Table 2 rows beside the paper's
//! ```
//!
//! Every failure is an error naming the flag or the file and the rule (exit code 1); a bad flag
//! value is refused by the parser with the possible values (exit code 2). A panic would be a bug:
//! it is caught, reported as one, and exits with code 70, never with Rust's 101.

use clap::{Args, Parser, Subcommand};
use probdml::ggn::{Approximation, Split};
use probdml::train::config::{
    BtlOptions, DatasetChoice, HibOptions, Method, Protocol, ProxyOptions, Schedule, TrainConfig,
};
use probdml::train::data::default_data_dir;
use probdml::train::evaluate::{mean_std, Metrics, MetricsSummary};
use probdml::train::json;
use probdml::train::method::lam_posthoc::{PosthocHessian, PriorChoice};
use probdml::train::protocol::Score;
use probdml::train::report::{format_table, PaperMethod, TableRow};
use probdml::train::run::{
    self, prepare_out, select_device, OutPolicy, PosthocOptions, RunSummary,
};
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
    #[arg(long, value_enum, default_value = "arccos")]
    split: Split,
    /// PSD approximation.
    #[arg(long, value_enum, default_value = "fixed")]
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
    #[arg(long, default_value_t = 1.0)]
    tempering: f64,
    /// Training protocol.
    #[arg(long, value_enum, default_value = "ours")]
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

#[derive(Args)]
#[command(allow_negative_numbers = true)]
struct TrainArgs {
    /// The method.
    #[arg(long, value_enum, default_value = "lam-online")]
    method: Method,
    /// The method of every member (--method ensemble only).
    #[arg(long, value_enum, default_value = "deterministic")]
    member_method: Method,
    /// Members of an ensemble.
    #[arg(long, default_value_t = 5)]
    ensemble_size: usize,
    /// GGN split (LAM).
    #[arg(long, value_enum, default_value = "arccos")]
    split: Split,
    /// PSD approximation (LAM).
    #[arg(long, value_enum, default_value = "fixed")]
    approximation: Approximation,
    /// The data.
    #[arg(long, value_enum, default_value = "fashion-mnist")]
    dataset: DatasetChoice,
    /// Training protocol.
    #[arg(long, value_enum, default_value = "ours")]
    protocol: Protocol,
    /// Latent dimension D.
    #[arg(long, default_value_t = 3)]
    latent_dim: usize,
    /// Epochs over the training set.
    #[arg(long, default_value_t = 20)]
    epochs: usize,
    /// Batch size (default: 64 for lam-online, 256 otherwise, as chapter 09).
    #[arg(long)]
    batch: Option<usize>,
    /// Seed of every random draw.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Learning rate (RMSprop; the reference protocol multiplies it by the batch size).
    #[arg(long, default_value_t = 1e-3)]
    lr: f64,
    /// Weight samples per test image (default: the protocol's, 16 for ours, 100 for reference).
    #[arg(long)]
    eval_samples: Option<usize>,
    /// Weight samples per online-LAM step.
    #[arg(long, default_value_t = 1)]
    train_samples: usize,
    /// Prior precision of the last-layer weights (default: the fan-in F, see TrainConfig).
    #[arg(long)]
    prior_precision: Option<f64>,
    /// Tempering β of the post-hoc Hessian.
    #[arg(long, default_value_t = 1.0)]
    tempering: f64,
    /// Dropout probability (MC dropout).
    #[arg(long, default_value_t = 0.05)]
    dropout: f64,
    /// Use only the first N training images.
    #[arg(long)]
    train_limit: Option<usize>,
    /// Use only the first N test and OOD images.
    #[arg(long)]
    test_limit: Option<usize>,
    /// PFE: the deterministic checkpoint to freeze (default: train one into <out>/deterministic); BTL: an optional deterministic checkpoint to start the backbone and μ head from (the paper starts from pretrained weights).
    #[arg(long)]
    init_checkpoint: Option<PathBuf>,
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
    hib: HibOptions,
    #[command(flatten)]
    proxy: ProxyOptions,
    #[command(flatten)]
    btl: BtlOptions,
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
    /// Comma-separated methods (default: from the schedule).
    #[arg(long, value_enum, value_delimiter = ',')]
    methods: Option<Vec<Method>>,
    /// Latent dimension D.
    #[arg(long, default_value_t = 3)]
    latent_dim: usize,
    /// The data.
    #[arg(long, value_enum, default_value = "fashion-mnist")]
    dataset: DatasetChoice,
    /// Comma-separated training protocols; every method runs under each (default: short: ours,reference; paper: ours).
    #[arg(long, value_enum, value_delimiter = ',')]
    protocol: Option<Vec<Protocol>>,
    /// Use only the first N training images.
    #[arg(long)]
    train_limit: Option<usize>,
    /// Use only the first N test and OOD images.
    #[arg(long)]
    test_limit: Option<usize>,
    /// Output folder (one subfolder per method, protocol and seed: `<method>-seed<k>` for ours, `<method>-<protocol>-seed<k>` otherwise; runs found there are resumed).
    #[arg(long, default_value = "runs/reproduce")]
    out: PathBuf,
    #[command(flatten)]
    common: Common,
}

fn setup(common: &Common) -> TrainResult<(tch::Device, PathBuf)> {
    if let Some(t) = common.threads {
        if !(1..=4096).contains(&t) {
            return Err(TrainError::config("threads", t, "must lie in [1, 4096]"));
        }
        tch::set_num_threads(t);
    }
    let device = select_device(&common.device)?;
    let data = common.data.clone().unwrap_or_else(default_data_dir);
    Ok((device, data))
}

fn train_config(a: &TrainArgs) -> TrainResult<TrainConfig> {
    let base = TrainConfig {
        method: a.method,
        member_method: a.member_method,
        ensemble_size: a.ensemble_size,
        split: a.split,
        approximation: a.approximation,
        dataset: a.dataset,
        latent_dim: a.latent_dim,
        epochs: a.epochs,
        batch_size: a
            .batch
            .unwrap_or(TrainConfig::reference_batch_size(a.method)),
        learning_rate: a.lr,
        train_samples: a.train_samples,
        tempering: a.tempering,
        dropout: a.dropout,
        seed: a.seed,
        train_limit: a.train_limit,
        test_limit: a.test_limit,
        hib: a.hib.clone(),
        proxy: a.proxy.clone(),
        btl: a.btl.clone(),
        init_checkpoint: a.init_checkpoint.clone(),
        ..TrainConfig::default()
    }
    .with_protocol(a.protocol);
    // Explicit flags win over the protocol's choices.
    let config = TrainConfig {
        eval_samples: a.eval_samples.unwrap_or(base.eval_samples),
        prior_precision: a.prior_precision.unwrap_or(base.prior_precision),
        ..base
    };
    config.validate()?;
    Ok(config)
}

fn print_json<T: serde::Serialize>(value: &T) {
    match json::to_text(value, Path::new("<stdout>")) {
        Ok(s) => print!("{s}"),
        Err(e) => eprintln!("cannot print: {e}"),
    }
}

fn paper_key(method: Method) -> Option<PaperMethod> {
    match method {
        Method::Deterministic => Some(PaperMethod::Deterministic),
        Method::McDropout => Some(PaperMethod::McDropout),
        Method::LamPosthoc => Some(PaperMethod::LamPosthoc),
        Method::LamOnline => Some(PaperMethod::LamOnline),
        Method::Ensemble => Some(PaperMethod::Ensemble),
        Method::Hib => Some(PaperMethod::Hib),
        // Our extra row: the nivMF paper has no number on this benchmark.
        Method::ProxyNca => None,
        Method::Pfe => Some(PaperMethod::Pfe),
        // LAM Table 2 has no BTL row (the BTL paper reports CUB, Cars, MSLS, not this benchmark).
        Method::BtlGaussian | Method::BtlVmf => None,
    }
}

fn label(config: &TrainConfig) -> String {
    // Rows of another protocol than ours say so (our rows keep the README's labels).
    let protocol = match config.protocol {
        Protocol::Ours => String::new(),
        p => format!(" [{} protocol]", p.name()),
    };
    format!("{}{protocol}", method_label(config))
}

fn method_label(config: &TrainConfig) -> String {
    let split = probdml::train::config::split_name(config.split);
    let approximation = probdml::train::config::approximation_name(config.approximation);
    match config.method {
        Method::LamOnline | Method::LamPosthoc => {
            format!("{} ({split}, {approximation})", config.method.name())
        }
        Method::Ensemble => format!(
            "ensemble of {} {}",
            config.ensemble_size,
            config.member_method.name()
        ),
        Method::ProxyNca if config.proxy.omega > 0.0 => format!(
            "proxy-nca (PANC + {}, ω = {})",
            config.proxy.distance.name(),
            config.proxy.omega
        ),
        Method::ProxyNca => format!("proxy-nca ({})", config.proxy.distance.name()),
        Method::Hib if config.hib.components > 1 => {
            format!("hib (MoG, C = {})", config.hib.components)
        }
        m => m.name().to_string(),
    }
}

fn row(summary: &RunSummary) -> TableRow {
    TableRow {
        method: paper_key(summary.config.method),
        label: label(&summary.config),
        summary: MetricsSummary::from(&summary.metrics),
    }
}

fn reproduce(a: &ReproduceArgs) -> TrainResult<()> {
    let (device, data) = setup(&a.common)?;
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
    let paper = schedule == Schedule::Paper;
    let epochs = a.epochs.unwrap_or(if paper { 20 } else { 5 });
    let seeds = a.seeds.unwrap_or(if paper { 5 } else { 1 });
    if !(1..=1000).contains(&seeds) {
        return Err(TrainError::config("seeds", seeds, "must lie in [1, 1000]"));
    }
    let methods: Vec<Method> = match &a.methods {
        Some(list) if list.is_empty() => {
            return Err(TrainError::config(
                "methods",
                "",
                "name at least one method",
            ))
        }
        Some(list) => list.clone(),
        // Every row of LAM Table 2 in the paper's order, then our extra rows.
        None if paper => vec![
            Method::Deterministic,
            Method::Ensemble,
            Method::Pfe,
            Method::Hib,
            Method::McDropout,
            Method::LamPosthoc,
            Method::LamOnline,
            Method::BtlGaussian,
            Method::BtlVmf,
            Method::ProxyNca,
        ],
        None => vec![Method::LamOnline],
    };
    let protocols: Vec<Protocol> = match &a.protocol {
        Some(list) if list.is_empty() => {
            return Err(TrainError::config(
                "protocol",
                "",
                "name at least one protocol",
            ))
        }
        Some(list) => list.iter().fold(Vec::new(), |mut unique, &p| {
            if !unique.contains(&p) {
                unique.push(p);
            }
            unique
        }),
        // The main command shows both: ours (calibrated) and the LAM reference code's (the
        // paper's OOD numbers; issue 12).
        None if paper => vec![Protocol::Ours],
        None => vec![Protocol::Ours, Protocol::Reference],
    };
    // Validate every configuration and the output folder before the first step.
    let config_of = |method: Method, protocol: Protocol, seed: u64| {
        TrainConfig {
            method,
            dataset: a.dataset,
            latent_dim: a.latent_dim,
            epochs,
            batch_size: TrainConfig::reference_batch_size(method),
            seed,
            train_limit: a.train_limit,
            test_limit: a.test_limit,
            ..TrainConfig::default()
        }
        .with_protocol(protocol)
    };
    // One folder per method, protocol and seed; ours keeps the plain name of earlier runs.
    let folder = |method: Method, protocol: Protocol, seed: u64| {
        a.out.join(match protocol {
            Protocol::Ours => format!("{}-seed{seed}", method.name()),
            p => format!("{}-{}-seed{seed}", method.name(), p.name()),
        })
    };
    for &method in &methods {
        for &protocol in &protocols {
            config_of(method, protocol, 0).validate()?;
        }
    }
    prepare_out(&a.out, OutPolicy::Resume)?;
    let mut rows = Vec::new();
    let mut epoch_seconds = Vec::new();
    for &method in &methods {
        for &protocol in &protocols {
            let mut runs: Vec<RunSummary> = Vec::new();
            for seed in 0..seeds {
                let config = config_of(method, protocol, seed);
                let out = folder(method, protocol, seed);
                eprintln!(
                    "== {} seed {seed}: {epochs} epochs on {:?} -> {}",
                    label(&config),
                    device,
                    out.display()
                );
                // Post-hoc LAM and PFE start from the deterministic model of the same protocol
                // and seed: train (or resume) it once for both.
                let deterministic = || {
                    let det = TrainConfig {
                        method: Method::Deterministic,
                        ..config.clone()
                    };
                    let det_out = folder(Method::Deterministic, protocol, seed);
                    run::train_and_evaluate(&det, &data, &det_out, true, device).map(|_| det_out)
                };
                let summary = if method == Method::LamPosthoc {
                    // The paper's post-hoc model is the deterministic one plus a Laplace
                    // approximation: the Hessian pass over the trained deterministic run.
                    let det_out = deterministic()?;
                    run::posthoc_from_checkpoint(
                        &det_out,
                        &out,
                        &PosthocOptions {
                            split: config.split,
                            approximation: config.approximation,
                            prior: Some(PriorChoice::Fixed(config.prior_precision)),
                            tempering: config.tempering,
                            protocol: config.protocol,
                            hessian: PosthocHessian::Ggn,
                            score: None,
                        },
                        &data,
                        device,
                        OutPolicy::Overwrite,
                    )?
                } else if method == Method::Pfe {
                    let pfe = TrainConfig {
                        init_checkpoint: Some(deterministic()?),
                        ..config.clone()
                    };
                    run::train_and_evaluate(&pfe, &data, &out, true, device)?
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
    }
    println!();
    println!(
        "D = {}, {epochs} epochs, {seeds} seed(s), device {device:?}",
        a.latent_dim
    );
    println!("{}", format_table(&rows, a.dataset));
    println!("mean epoch time:");
    for (l, s, b) in &epoch_seconds {
        println!("  {l}: {s:.1} s (batch {b})");
    }
    Ok(())
}

/// The table of `probdml summarise`: every row's runs through [`mean_std`] (which refuses runs
/// evaluated on different sets), no paper rows (the rows need not be the paper's methods).
fn summarise(a: &SummariseArgs) -> TrainResult<String> {
    let rule = "LABEL=RUN[,RUN...]: a label, `=`, and one or more run folders separated by commas";
    let mut rows = Vec::new();
    let mut dataset = None;
    for spec in &a.rows {
        let (label, runs) = spec
            .split_once('=')
            .filter(|(l, r)| !l.trim().is_empty() && !r.trim().is_empty())
            .ok_or_else(|| TrainError::config("row", spec, rule))?;
        let mut metrics = Vec::new();
        for run in runs.split(',').map(str::trim) {
            if run.is_empty() {
                return Err(TrainError::config("row", spec, rule));
            }
            let run = Path::new(run);
            let config: TrainConfig = json::read_json(&run.join("config.json"))?;
            match dataset {
                None => dataset = Some(config.dataset),
                Some(d) if d != config.dataset => {
                    return Err(TrainError::config(
                        "row",
                        spec,
                        format!(
                            "every run must be on one dataset; {} is on {}, an earlier one on {}",
                            run.display(),
                            config.dataset.title(),
                            d.title()
                        ),
                    ))
                }
                Some(_) => {}
            }
            metrics.push(json::read_json::<Metrics>(&run.join("metrics.json"))?);
        }
        rows.push(TableRow {
            method: None,
            label: label.trim().to_string(),
            summary: mean_std(&metrics)?,
        });
    }
    let dataset = dataset.ok_or_else(|| TrainError::config("row", "(none)", rule))?;
    Ok(format_table(&rows, dataset))
}

fn real_main() -> TrainResult<()> {
    let cli = Cli::parse();
    match cli.command {
        Command::Train(a) => {
            let config = train_config(&a)?;
            let policy = match (a.resume, a.force) {
                (true, _) => OutPolicy::Resume,
                (false, true) => OutPolicy::Overwrite,
                (false, false) => OutPolicy::Fresh,
            };
            prepare_out(&a.out, policy)?;
            let (device, data) = setup(&a.common)?;
            let summary = run::train_and_evaluate(&config, &data, &a.out, a.resume, device)?;
            print_json(&summary.metrics);
            println!("{}", format_table(&[row(&summary)], config.dataset));
            println!(
                "mean epoch time {:.1} s on {}",
                summary.timing.mean_epoch_seconds, summary.timing.device
            );
        }
        Command::Eval(EvalCmdArgs { eval: a, score }) => {
            let out: &Path = a.out.as_deref().unwrap_or(&a.checkpoint);
            if score.is_some() && run::same_folder(out, &a.checkpoint) {
                return Err(TrainError::config(
                    "out",
                    out.display(),
                    "with --score the results go to a new folder: the checkpoint's own metrics.json belongs to its own score",
                )
                .into());
            }
            prepare_out(out, OutPolicy::Resume)?;
            let (device, data_dir) = setup(&a.common)?;
            let trained = run::load_trained_scored(&a.checkpoint, device, score)?;
            let data = run::load_data(&trained.config, &data_dir)?;
            let metrics = run::evaluate_trained(&trained, &data, out, device)
                .map_err(|e| run::blame_checkpoint(&a.checkpoint, e))?;
            if score.is_some() {
                // The record of what was evaluated, and what `summarise` reads beside metrics.json.
                probdml::train::json::write_json(&out.join("config.json"), &trained.config)?;
            }
            print_json(&metrics);
        }
        Command::Posthoc(a) => {
            let (device, data) = setup(&a.common)?;
            let policy = if a.force {
                OutPolicy::Overwrite
            } else {
                OutPolicy::Fresh
            };
            let summary = run::posthoc_from_checkpoint(
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
                &data,
                device,
                policy,
            )?;
            print_json(&summary.metrics);
            println!("{}", format_table(&[row(&summary)], summary.config.dataset));
        }
        Command::Diagnose(a) => {
            let out: &Path = a.out.as_deref().unwrap_or(&a.checkpoint);
            prepare_out(out, OutPolicy::Resume)?;
            let (device, data_dir) = setup(&a.common)?;
            let trained = run::load_trained(&a.checkpoint, device)?;
            let data = run::load_data(&trained.config, &data_dir)?;
            let d = probdml::train::diagnose::diagnose_ood(&trained, &data, device)
                .map_err(|e| run::blame_checkpoint(&a.checkpoint, e))?;
            let path = out.join("diagnosis.json");
            json::write_json(&path, &d)?;
            print_json(&d);
            eprintln!("diagnosis written to {}", path.display());
        }
        Command::Reproduce(a) => reproduce(&a)?,
        Command::Summarise(a) => println!("{}", summarise(&a)?),
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
