//! The order in which the candidate search visits queries and items.
//!
//! The search's result does not depend on it: whatever the order in which items reach a
//! query, its candidate set holds the exact top k with its ties, and the exact re-ranking then
//! picks them ([`candidate_search`](crate::metrics::candidate_search)). Its cost does. A query's
//! threshold falls only as near items arrive; until it has, most items pass the filter and are
//! pushed, and the pushes, not the comparisons, are what the filter costs. In a random order a
//! query keeps receiving closer items block after block: a streaming top k of n items in random
//! order sees about k·ln(n/k) new records.
//!
//! A retrieval task carries labels, and a query's positives are where its near items are
//! likely to be: that is what the task measures. The search therefore visits rows grouped by
//! label (a stable sort, so equal labels keep their order): in a leave-one-out task the
//! diagonal block (a, a) comes first for each query block and holds the query's classmates;
//! with a separate database each query block starts at the item block that holds its labels.
//! After one block the threshold lies near its final value. On embeddings whose labels say
//! nothing about distance the grouping changes no result and costs one copy of the rows.

use crate::metrics::retrieval_task::{Relevance, Retrieval};

/// Where each visited row comes from, for the queries and the items.
pub(crate) struct VisitOrder {
    /// Position p visits item `items[p]`; `None`: the given order.
    items: Option<Vec<u32>>,
    /// Position p visits query `queries[p]`; `None`: the given order. Unused in a
    /// leave-one-out task, whose queries are its items.
    queries: Option<Vec<u32>>,
    /// Whether the queries are the items (leave-one-out): they are then visited in one order.
    shared: bool,
    /// A separate query set's and the items' labels in visiting order (empty otherwise): what
    /// aligns a query block with its item blocks.
    query_labels: Vec<i128>,
    item_labels: Vec<i128>,
}

/// The indices `0..keys.len()` stably sorted by key (`None` when that is the given order),
/// and the keys in that order.
fn grouped(keys: Vec<i128>) -> (Option<Vec<u32>>, Vec<i128>) {
    let mut order: Vec<u32> = (0..keys.len() as u32).collect();
    order.sort_by_key(|&i| keys[i as usize]);
    let sorted: Vec<i128> = order.iter().map(|&i| keys[i as usize]).collect();
    let moved = order.iter().enumerate().any(|(p, &i)| p != i as usize);
    (moved.then_some(order), sorted)
}

impl VisitOrder {
    /// The given order of both sets.
    pub(crate) fn given() -> Self {
        Self {
            items: None,
            queries: None,
            shared: false,
            query_labels: Vec::new(),
            item_labels: Vec::new(),
        }
    }

    /// Rows grouped by label (module docs); the given order for a task with positive sets.
    pub(crate) fn by_label(task: &Retrieval<'_>) -> Self {
        let Relevance::Labels { queries, database } = task.relevance() else {
            return Self::given();
        };
        let (items, item_labels) = grouped(database.to_vec());
        if task.is_leave_one_out() {
            // The diagonal blocks align the queries with their items: no labels kept.
            return Self {
                items,
                shared: true,
                ..Self::given()
            };
        }
        let (queries, query_labels) = grouped(queries.to_vec());
        Self {
            items,
            queries,
            shared: false,
            query_labels,
            item_labels,
        }
    }

    /// Position p visits query `queries()[p]` (`None`: query p).
    pub(crate) fn queries(&self) -> Option<&[u32]> {
        if self.shared {
            self.items()
        } else {
            self.queries.as_deref()
        }
    }

    /// Position p visits item `items()[p]` (`None`: item p).
    pub(crate) fn items(&self) -> Option<&[u32]> {
        self.items.as_deref()
    }

    /// The item block (of `block` rows, `item_blocks` of them) that query block `a` visits
    /// first: the one holding the first item whose label is at least the label at the middle
    /// of the query block; block 0 without labels.
    pub(crate) fn first_item_block(&self, a: usize, block: usize, item_blocks: usize) -> usize {
        if self.query_labels.is_empty() || self.item_labels.is_empty() {
            return 0;
        }
        let middle = (a * block + block / 2).min(self.query_labels.len() - 1);
        let label = self.query_labels[middle];
        let at = self.item_labels.partition_point(|&l| l < label);
        (at / block).min(item_blocks - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::embeddings::{Distance, Embeddings};

    /// The visiting order of a leave-one-out task of one-dimensional zeros with `labels`.
    fn leave_one_out_order(labels: &[u8]) -> VisitOrder {
        let x = vec![0.0; labels.len()];
        let embeddings = Embeddings::new(&x, 1).expect("finite");
        let task = Retrieval::leave_one_out(embeddings, labels, Distance::Euclidean);
        VisitOrder::by_label(&task.expect("valid"))
    }

    #[test]
    fn rows_are_grouped_by_label_stably() {
        let order = leave_one_out_order(&[2, 0, 2, 1, 0, 2]);
        assert_eq!(order.items(), Some(&[1, 4, 3, 0, 2, 5][..]));
        assert_eq!(order.queries(), order.items());
        // Already grouped: the given order, no copy.
        assert_eq!(leave_one_out_order(&[0, 0, 1, 2, 2, 2]).items(), None);
    }

    #[test]
    fn a_query_block_starts_at_the_items_with_its_labels() {
        // Items: labels 0..8, 4 each (32 items, blocks of 4 → 8 blocks, one label each);
        // queries: labels 5, 5, 6, 6 | 1, 1, 1, 1 given out of order.
        let items: Vec<u8> = (0..32).map(|i| (i % 8) as u8).collect();
        let query_labels = [1u8, 6, 1, 5, 1, 6, 1, 5];
        let (x, q) = ([0.0; 32], [0.0; 8]);
        let task = Retrieval::query_database(
            Embeddings::new(&q, 1).expect("finite"),
            &query_labels,
            Embeddings::new(&x, 1).expect("finite"),
            &items,
            Distance::Euclidean,
        )
        .expect("valid");
        let order = VisitOrder::by_label(&task);
        // Grouped queries: 1, 1, 1, 1 | 5, 5, 6, 6; the middle of block 1 is label 6.
        assert_eq!(order.queries(), Some(&[0, 2, 4, 6, 3, 7, 1, 5][..]));
        assert_eq!(order.first_item_block(0, 4, 8), 1);
        assert_eq!(order.first_item_block(1, 4, 8), 6);
        assert_eq!(VisitOrder::given().first_item_block(1, 4, 8), 0);
    }
}
