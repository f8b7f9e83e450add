//! A retrieval task: who queries, what is searched, what counts as a positive, by which distance.

use crate::error::{Error, Result};
use crate::metrics::checks;
use crate::metrics::embeddings::{Distance, Embeddings};
use crate::metrics::input::labels::{IntoLabels, Labels};

/// What makes a database item a positive (a relevant result) for a query.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Relevance<'a> {
    /// Class labels: item `j` is a positive of query `q` when `database[j] == queries[q]`
    /// (compared by value, whatever their integer types). In a leave-one-out task both are the
    /// same. None is negative: the constructors refuse that.
    Labels {
        /// One label per query.
        queries: Labels<'a>,
        /// One label per database item.
        database: Labels<'a>,
    },
    /// Place recognition: `positives[q]` lists the database indices relevant to query `q`
    /// (a set: a repeated index counts once; in a leave-one-out task the query's own index is
    /// ignored, since the query never retrieves itself).
    Positives(&'a [Vec<usize>]),
}

/// A retrieval task, checked once at construction and then read by every retrieval metric and
/// by both twins of the nearest-neighbour search.
///
/// **Queries.** Either the database itself (*leave-one-out*: query `q` is database row `q`, and
/// it never retrieves itself — only its own index is excluded, not duplicates of it), or a
/// separate set of embeddings.
///
/// **Tie rule.** Database items at equal distance from a query are ranked by increasing database
/// index, applied to the exact twin's `f64` distances (Σ(q − x)² summed in index order, or
/// 1 − ⟨q, x⟩/(‖q‖‖x‖)); the fast twin re-ranks its `f32` candidates by those same distances,
/// so both twins rank identically, ties and last-bit differences included.
///
/// **Threads.** [`Retrieval::with_threads`] sets the thread count of the search (otherwise
/// rayon's global pool); **precision**: embeddings may be `f64` or borrowed `f32`
/// ([`Embeddings::from_f32`]).
///
/// # Examples
///
/// ```
/// use probdml::metrics::{Distance, Embeddings, Retrieval};
/// let points = [0.0, 0.1, 1.0, 1.2];
/// let labels = [0, 0, 1, 1];
/// let task = Retrieval::leave_one_out(Embeddings::new(&points, 1)?, &labels, Distance::Euclidean)?;
/// assert_eq!((task.query_count(), task.max_k()), (4, 3));
/// # Ok::<(), probdml::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Retrieval<'a> {
    queries: Option<Embeddings<'a>>,
    database: Embeddings<'a>,
    relevance: Relevance<'a>,
    distance: Distance,
    threads: Option<usize>,
}

impl<'a> Retrieval<'a> {
    /// Every embedding queries all the others (its own row excluded); positives share its label.
    /// The labels may be of any integer type, as the data has them ([`IntoLabels`]: `&[i64]`
    /// from PyTorch, `&[usize]`, `&[u8]`, …).
    ///
    /// # Errors
    ///
    /// [`Error::TooFew`] with fewer than 2 embeddings; [`Error::DimensionMismatch`] if
    /// `labels.len()` differs from the number of embeddings; [`Error::OutOfDomainElement`]
    /// naming the index of a negative label; [`Error::OutOfDomain`] for a zero row under
    /// [`Distance::Cosine`].
    ///
    /// # Examples
    ///
    /// ```
    /// use probdml::metrics::{Distance, Embeddings, Retrieval};
    /// let e = Embeddings::new(&[0.0, 1.0], 1)?;
    /// assert!(Retrieval::leave_one_out(e, &[0], Distance::Euclidean).is_err());
    /// assert!(Retrieval::leave_one_out(e, &[0, 0], Distance::Euclidean).is_ok());
    /// # Ok::<(), probdml::Error>(())
    /// ```
    pub fn leave_one_out(
        embeddings: Embeddings<'a>,
        labels: impl IntoLabels<'a>,
        distance: Distance,
    ) -> Result<Self> {
        let labels = labels.into_labels();
        Self::build(
            None,
            embeddings,
            Relevance::Labels {
                queries: labels,
                database: labels,
            },
            distance,
        )
    }

    /// Every embedding queries all the others (its own row excluded); the positives of query
    /// `q` are the database indices in `positives[q]`.
    ///
    /// # Errors
    ///
    /// As [`Retrieval::leave_one_out`], and [`Error::IndexOutOfRange`] for an index not below
    /// the number of embeddings.
    ///
    /// # Examples
    ///
    /// ```
    /// use probdml::metrics::{Distance, Embeddings, Retrieval};
    /// let e = Embeddings::new(&[0.0, 1.0, 5.0], 1)?;
    /// let positives = vec![vec![1], vec![0], vec![]];
    /// assert!(Retrieval::leave_one_out_positives(e, &positives, Distance::Euclidean).is_ok());
    /// # Ok::<(), probdml::Error>(())
    /// ```
    pub fn leave_one_out_positives(
        embeddings: Embeddings<'a>,
        positives: &'a [Vec<usize>],
        distance: Distance,
    ) -> Result<Self> {
        Self::build(None, embeddings, Relevance::Positives(positives), distance)
    }

    /// Separate queries against a database; a database item is a positive of a query when their
    /// labels are equal.
    ///
    /// # Errors
    ///
    /// [`Error::DimensionMismatch`] if the embedding dimensions or the label counts disagree;
    /// [`Error::OutOfDomainElement`] naming the index of a negative label;
    /// [`Error::OutOfDomain`] for a zero row under [`Distance::Cosine`].
    ///
    /// # Examples
    ///
    /// ```
    /// use probdml::metrics::{Distance, Embeddings, Retrieval};
    /// let q = Embeddings::new(&[0.0, 1.0], 2)?;
    /// let db = Embeddings::new(&[0.0, 1.0, 1.0, 0.0], 2)?;
    /// let task = Retrieval::query_database(q, &[7], db, &[7, 8], Distance::Cosine)?;
    /// assert_eq!(task.max_k(), 2);
    /// # Ok::<(), probdml::Error>(())
    /// ```
    pub fn query_database(
        queries: Embeddings<'a>,
        query_labels: impl IntoLabels<'a>,
        database: Embeddings<'a>,
        database_labels: impl IntoLabels<'a>,
        distance: Distance,
    ) -> Result<Self> {
        Self::build(
            Some(queries),
            database,
            Relevance::Labels {
                queries: query_labels.into_labels(),
                database: database_labels.into_labels(),
            },
            distance,
        )
    }

    /// Separate queries against a database; the positives of query `q` are the database indices
    /// in `positives[q]` (place recognition).
    ///
    /// # Errors
    ///
    /// As [`Retrieval::query_database`], and [`Error::IndexOutOfRange`] for an index not below
    /// the database size.
    ///
    /// # Examples
    ///
    /// ```
    /// use probdml::metrics::{Distance, Embeddings, Retrieval};
    /// let q = Embeddings::new(&[0.0], 1)?;
    /// let db = Embeddings::new(&[0.5, 3.0], 1)?;
    /// assert!(Retrieval::query_database_positives(q, db, &[vec![2]], Distance::Euclidean).is_err());
    /// # Ok::<(), probdml::Error>(())
    /// ```
    pub fn query_database_positives(
        queries: Embeddings<'a>,
        database: Embeddings<'a>,
        positives: &'a [Vec<usize>],
        distance: Distance,
    ) -> Result<Self> {
        Self::build(
            Some(queries),
            database,
            Relevance::Positives(positives),
            distance,
        )
    }

    fn build(
        queries: Option<Embeddings<'a>>,
        database: Embeddings<'a>,
        relevance: Relevance<'a>,
        distance: Distance,
    ) -> Result<Self> {
        let n_db = database.len();
        let n_q = match queries {
            None => {
                if n_db < 2 {
                    return Err(Error::TooFew {
                        arg: "embeddings",
                        min: 2,
                        got: n_db,
                    });
                }
                database.check_for("embeddings", distance)?;
                n_db
            }
            Some(q) => {
                checks::same_length("queries", database.dim(), q.dim())?;
                q.check_for("queries", distance)?;
                database.check_for("database", distance)?;
                q.len()
            }
        };
        match relevance {
            Relevance::Labels {
                queries: query_labels,
                database: database_labels,
            } => {
                let (q_arg, db_arg) = if queries.is_none() {
                    ("labels", "labels")
                } else {
                    ("query_labels", "database_labels")
                };
                checks::same_length(db_arg, n_db, database_labels.len())?;
                checks::same_length(q_arg, n_q, query_labels.len())?;
                database_labels.check(db_arg)?;
                query_labels.check(q_arg)?;
            }
            Relevance::Positives(positives) => {
                checks::same_length("positives", n_q, positives.len())?;
                let mut position = 0;
                for set in positives {
                    for &index in set {
                        if index >= n_db {
                            return Err(Error::IndexOutOfRange {
                                arg: "positives",
                                position,
                                index,
                                target: "database",
                                len: n_db,
                            });
                        }
                        position += 1;
                    }
                }
            }
        }
        Ok(Self {
            queries,
            database,
            relevance,
            distance,
            threads: None,
        })
    }

    /// The same task, searched on `threads` threads (its own rayon pool; 1 runs on the calling
    /// thread alone) instead of the global pool (which `RAYON_NUM_THREADS` sizes). Results do
    /// not depend on the thread count. Without the feature `rayon` every search runs on the
    /// calling thread.
    ///
    /// # Errors
    ///
    /// [`Error::CountOutOfRange`] if `threads` is 0 or above 1024.
    ///
    /// # Examples
    ///
    /// ```
    /// use probdml::metrics::{self, Distance, Embeddings, Retrieval};
    /// let x = [0.0f32, 0.1, 1.0, 1.2];
    /// let task = Retrieval::leave_one_out(Embeddings::from_f32(&x, 1)?, &[0, 0, 1, 1], Distance::Euclidean)?;
    /// let one = task.with_threads(1)?;
    /// assert_eq!(one.threads(), Some(1));
    /// assert_eq!(metrics::recall_at_k(&one, 1)?, metrics::recall_at_k(&task.with_threads(2)?, 1)?);
    /// assert!(task.with_threads(0).is_err());
    /// # Ok::<(), probdml::Error>(())
    /// ```
    pub fn with_threads(mut self, threads: usize) -> Result<Self> {
        checks::count_in_range(
            "threads",
            threads,
            1,
            1024,
            "a search runs on at least one thread",
        )?;
        self.threads = Some(threads);
        Ok(self)
    }

    /// The thread count chosen with [`Retrieval::with_threads`] (`None`: rayon's global pool).
    pub fn threads(&self) -> Option<usize> {
        self.threads
    }

    /// Runs `f` on the task's threads: inside a pool of that size, or as it is.
    #[doc(hidden)]
    pub fn run<R: Send>(&self, f: impl FnOnce() -> Result<R> + Send) -> Result<R> {
        crate::threads::with_threads(self.threads, f).map_err(|_| Error::Undefined {
            arg: "threads",
            quantity: "a thread pool",
            reason: "the operating system did not start the requested threads",
        })?
    }

    /// Number of queries.
    pub fn query_count(&self) -> usize {
        self.queries.map_or(self.database.len(), |q| q.len())
    }

    /// The query embeddings (the database itself in a leave-one-out task).
    pub fn queries(&self) -> Embeddings<'a> {
        self.queries.unwrap_or(self.database)
    }

    /// The database embeddings.
    pub fn database(&self) -> Embeddings<'a> {
        self.database
    }

    /// Whether queries are the database with each query's own row excluded.
    pub fn is_leave_one_out(&self) -> bool {
        self.queries.is_none()
    }

    /// The relevance rule.
    pub fn relevance(&self) -> Relevance<'a> {
        self.relevance
    }

    /// The distance neighbours are ranked by.
    pub fn distance(&self) -> Distance {
        self.distance
    }

    /// The largest valid cut-off k: the number of database items a query can retrieve
    /// (the database size, less one in a leave-one-out task).
    pub fn max_k(&self) -> usize {
        self.database.len() - usize::from(self.is_leave_one_out())
    }

    /// Checks a non-empty list of cut-offs, each in `1 ..= max_k()`, naming the position of the
    /// first that is not; returns the largest.
    #[doc(hidden)]
    pub fn check_ks(&self, arg: &'static str, ks: &[usize]) -> Result<usize> {
        checks::at_least(arg, ks, 1)?;
        for (index, &k) in ks.iter().enumerate() {
            if let Err(Error::CountOutOfRange {
                value,
                min,
                max,
                reason,
                ..
            }) = self.check_k(arg, k)
            {
                return Err(Error::CountOutOfRangeElement {
                    arg,
                    index,
                    value,
                    min,
                    max,
                    reason,
                });
            }
        }
        Ok(ks.iter().copied().max().unwrap_or(0))
    }

    /// Checks a cut-off `k` against `1 ..= max_k()`.
    #[doc(hidden)]
    pub fn check_k(&self, arg: &'static str, k: usize) -> Result<usize> {
        checks::count_in_range(
            arg,
            k,
            1,
            self.max_k(),
            "k counts retrieved items: at least 1, at most the database a query sees",
        )
    }

    /// The error for a task in which no query has a positive.
    #[doc(hidden)]
    pub fn no_scored_query(&self) -> Error {
        Error::Undefined {
            arg: match self.relevance {
                Relevance::Labels { .. } if self.is_leave_one_out() => "labels",
                Relevance::Labels { .. } => "query_labels",
                Relevance::Positives(_) => "positives",
            },
            quantity: "a retrieval metric",
            reason: "no query has a positive in the database (queries without positives are \
                     excluded, and none is left)",
        }
    }
}
