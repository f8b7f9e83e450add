//! Retrieval metrics on `f32` embeddings with `i64` labels, and OOD metrics on `f32` scores,
//! as a PyTorch evaluation loop holds them.
use probdml::metrics::{self, Distance, Embeddings, Retrieval};
use rand::{rngs::StdRng, RngExt, SeedableRng};

fn main() -> Result<(), probdml::Error> {
    // Three classes of 20 points in ℝ⁸, each near its own axis: every nearest neighbour is of
    // the query's class, so recall@1 is 1.
    let (dim, per_class) = (8, 20);
    let mut rng = StdRng::seed_from_u64(7);
    let mut x: Vec<f32> = Vec::new();
    let mut labels: Vec<i64> = Vec::new();
    for class in 0..3_i64 {
        for _ in 0..per_class {
            let mut row: Vec<f32> = (0..dim).map(|_| rng.random_range(-0.05..0.05)).collect();
            row[class as usize] += 1.0;
            x.extend(row);
            labels.push(class);
        }
    }
    let task = Retrieval::leave_one_out(Embeddings::from_f32(&x, dim)?, &labels, Distance::Cosine)?;
    let recall = metrics::recall_at_k(&task, 1)?;
    println!(
        "recall@1 = {recall}, mAP@10 = {:.4}",
        metrics::map_at_k(&task, 10)?
    );
    assert_eq!(recall, 1.0);

    // PyTorch's "ignore" label −1 is refused, naming its position, not made a class.
    labels[5] = -1;
    let err = Retrieval::leave_one_out(Embeddings::from_f32(&x, dim)?, &labels, Distance::Cosine)
        .unwrap_err();
    println!("label −1: {err}");
    assert!(err.to_string().contains("element 5"));

    // AUROC = P(an OOD score exceeds an ID score): 5 of the 6 pairs here.
    let id: [f32; 3] = [0.1, 0.2, 0.3];
    let ood: [f32; 2] = [0.25, 0.9];
    let auroc = metrics::OodScores { id: &id, ood: &ood }.auroc()?;
    println!(
        "AUROC = {auroc:.6}, AUPRC = {:.6}",
        metrics::OodScores { id: &id, ood: &ood }.auprc()?
    );
    assert_eq!(auroc, 5.0 / 6.0);
    Ok(())
}
