//! Where the ranks meet: the variables `torchrun` sets for every worker, read once and checked.
//!
//! `torchrun` (torch.distributed.run) sets `MASTER_ADDR`, `MASTER_PORT`, `RANK`, `WORLD_SIZE`,
//! `LOCAL_RANK` (and `LOCAL_WORLD_SIZE`, `GROUP_RANK`, ...), and `TORCHELASTIC_USE_AGENT_STORE=True`
//! when its agent already hosts the TCP store at `MASTER_ADDR:MASTER_PORT`: then every worker is
//! a client of that store; otherwise rank 0 hosts it (torch.distributed.rendezvous's
//! `_create_c10d_store` makes the same choice).

use std::time::Duration;

use super::error::{DistributedError, DistributedResult};

/// The timeout of every rendezvous and collective unless `PROBDML_DIST_TIMEOUT_S` says
/// otherwise. A dead peer is usually seen at once (its sockets close); the timeout bounds the
/// cases where it is not (a host that vanished, a rank stuck in a loop).
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(300);

/// One rank's view of the group it joins.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rendezvous {
    /// `MASTER_ADDR`: the host of the TCP store.
    pub master_addr: String,
    /// `MASTER_PORT`.
    pub master_port: u16,
    /// `RANK`: this process, `0..world_size`.
    pub rank: usize,
    /// `WORLD_SIZE`: how many processes train together.
    pub world_size: usize,
    /// `LOCAL_RANK`: this process among those on its machine (picks its GPU).
    pub local_rank: usize,
    /// Whether the launcher's agent hosts the store (`TORCHELASTIC_USE_AGENT_STORE=True`).
    pub agent_store: bool,
    /// Bound on the rendezvous and on every collective (`PROBDML_DIST_TIMEOUT_S`, seconds).
    pub timeout: Duration,
}

impl Rendezvous {
    /// Reads the launcher's variables; `Ok(None)` when `WORLD_SIZE` is unset (a plain,
    /// single-process run).
    pub fn from_env() -> DistributedResult<Option<Self>> {
        Self::from_lookup(|name| std::env::var(name).ok())
    }

    /// As [`Rendezvous::from_env`], reading variables through `get` (tests pass a table).
    pub fn from_lookup(get: impl Fn(&str) -> Option<String>) -> DistributedResult<Option<Self>> {
        let Some(world) = get("WORLD_SIZE") else {
            return Ok(None);
        };
        let world_size = parse_usize("WORLD_SIZE", Some(world))?;
        if world_size == 0 {
            return Err(DistributedError::Environment {
                var: "WORLD_SIZE",
                value: "0".into(),
                rule: "must be at least 1",
            });
        }
        let rank = parse_usize("RANK", get("RANK"))?;
        if rank >= world_size {
            return Err(DistributedError::Environment {
                var: "RANK",
                value: rank.to_string(),
                rule: "must be below WORLD_SIZE",
            });
        }
        let local_rank = match get("LOCAL_RANK") {
            Some(v) => parse_usize("LOCAL_RANK", Some(v))?,
            None => 0,
        };
        let master_addr = get("MASTER_ADDR").unwrap_or_default();
        if master_addr.trim().is_empty() {
            return Err(DistributedError::Environment {
                var: "MASTER_ADDR",
                value: "<unset>".into(),
                rule: "must name the host of rank 0 (torchrun sets it)",
            });
        }
        let port = get("MASTER_PORT");
        let master_port = match port.as_deref().map(str::trim).map(str::parse::<u16>) {
            Some(Ok(p)) if p > 0 => p,
            _ => {
                return Err(DistributedError::Environment {
                    var: "MASTER_PORT",
                    value: port.unwrap_or_else(|| "<unset>".into()),
                    rule: "must be a TCP port in 1..=65535 (torchrun sets it)",
                })
            }
        };
        let agent_store = get("TORCHELASTIC_USE_AGENT_STORE").as_deref() == Some("True");
        let timeout = match get("PROBDML_DIST_TIMEOUT_S") {
            None => DEFAULT_TIMEOUT,
            Some(v) => match v.trim().parse::<f64>() {
                Ok(s) if s.is_finite() && s > 0.0 && s <= 86_400.0 => Duration::from_secs_f64(s),
                _ => {
                    return Err(DistributedError::Environment {
                        var: "PROBDML_DIST_TIMEOUT_S",
                        value: v,
                        rule: "must be a number of seconds in (0, 86400]",
                    })
                }
            },
        };
        Ok(Some(Self {
            master_addr: master_addr.trim().to_owned(),
            master_port,
            rank,
            world_size,
            local_rank,
            agent_store,
            timeout,
        }))
    }

    /// `MASTER_ADDR:MASTER_PORT`, for messages.
    pub fn store(&self) -> String {
        format!("{}:{}", self.master_addr, self.master_port)
    }
}

fn parse_usize(var: &'static str, value: Option<String>) -> DistributedResult<usize> {
    match value.as_deref().map(str::trim).map(str::parse::<usize>) {
        Some(Ok(v)) => Ok(v),
        _ => Err(DistributedError::Environment {
            var,
            value: value.unwrap_or_else(|| "<unset>".into()),
            rule: "must be a non-negative integer (torchrun sets it)",
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |k| {
            pairs
                .iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| v.to_string())
        }
    }

    #[test]
    fn reads_what_torchrun_sets() {
        let rz = Rendezvous::from_lookup(table(&[
            ("MASTER_ADDR", "127.0.0.1"),
            ("MASTER_PORT", "29500"),
            ("RANK", "1"),
            ("WORLD_SIZE", "2"),
            ("LOCAL_RANK", "1"),
            ("TORCHELASTIC_USE_AGENT_STORE", "True"),
        ]))
        .unwrap()
        .unwrap();
        assert_eq!(rz.rank, 1);
        assert_eq!(rz.world_size, 2);
        assert_eq!(rz.local_rank, 1);
        assert!(rz.agent_store);
        assert_eq!(rz.timeout, DEFAULT_TIMEOUT);
        assert_eq!(rz.store(), "127.0.0.1:29500");
    }

    #[test]
    fn no_world_size_is_a_single_process() {
        assert_eq!(Rendezvous::from_lookup(table(&[])).unwrap(), None);
    }

    #[test]
    fn bad_variables_are_named() {
        let base = [
            ("MASTER_ADDR", "127.0.0.1"),
            ("MASTER_PORT", "29500"),
            ("RANK", "2"),
            ("WORLD_SIZE", "2"),
        ];
        let err = Rendezvous::from_lookup(table(&base)).unwrap_err();
        assert!(err.to_string().contains("`RANK`"), "{err}");
        let mut no_port = base;
        no_port[1] = ("MASTER_PORT", "http");
        no_port[2] = ("RANK", "0");
        let err = Rendezvous::from_lookup(table(&no_port)).unwrap_err();
        assert!(err.to_string().contains("`MASTER_PORT`"), "{err}");
        let mut timeout = base.to_vec();
        timeout[2] = ("RANK", "0");
        timeout.push(("PROBDML_DIST_TIMEOUT_S", "-1"));
        let err = Rendezvous::from_lookup(table(&timeout)).unwrap_err();
        assert!(err.to_string().contains("PROBDML_DIST_TIMEOUT_S"), "{err}");
    }
}
