//! Where a command runs: the libtorch device and CPU threads, and the data folder.

use crate::data::default_data_dir;
use crate::error::{TrainError, TrainResult};
use std::path::PathBuf;
use tch::Device;

/// The device and the data folder every command of the pipeline runs with.
#[derive(Debug, Clone)]
pub struct Environment {
    /// The libtorch device.
    pub device: Device,
    /// The folder of the real data sets.
    pub data_dir: PathBuf,
}

impl Environment {
    /// Sets libtorch's CPU threads (None: all cores), picks the device (see [`select_device`])
    /// and the data folder (None: [`default_data_dir`]).
    ///
    /// # Errors
    ///
    /// [`TrainError::InvalidConfig`] naming `threads` or `device`.
    pub fn new(device: &str, threads: Option<i32>, data_dir: Option<PathBuf>) -> TrainResult<Self> {
        if let Some(t) = threads {
            if !(1..=4096).contains(&t) {
                return Err(TrainError::config("threads", t, "must lie in [1, 4096]"));
            }
            tch::set_num_threads(t);
        }
        Ok(Self {
            device: select_device(device)?,
            data_dir: data_dir.unwrap_or_else(default_data_dir),
        })
    }
}

/// Parses `auto` (CUDA when available, else CPU), `cpu`, `cuda` or `cuda:N`.
///
/// # Errors
///
/// An unknown name, or `cuda` on a machine without a CUDA device.
pub fn select_device(choice: &str) -> TrainResult<Device> {
    let device = match choice {
        "auto" => Device::cuda_if_available(),
        "cpu" => Device::Cpu,
        "cuda" => Device::Cuda(0),
        s => match s
            .strip_prefix("cuda:")
            .and_then(|n| n.parse::<usize>().ok())
        {
            Some(n) => Device::Cuda(n),
            None => {
                return Err(TrainError::config(
                    "device",
                    s,
                    "one of auto, cpu, cuda, cuda:N",
                ))
            }
        },
    };
    if let Device::Cuda(n) = device {
        if !tch::Cuda::is_available() || n >= tch::Cuda::device_count() as usize {
            return Err(TrainError::config(
                "device",
                choice,
                "no such CUDA device here (use auto or cpu)",
            ));
        }
    }
    Ok(device)
}
