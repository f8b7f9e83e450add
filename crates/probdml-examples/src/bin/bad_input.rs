//! What a wrong input gives: an error that names the argument, the rule and the position;
//! never a panic, never a silent NaN.
use probdml::contrastive::{self, LossForm};
use probdml::metrics::{self, Distance, Embeddings, Retrieval};
use probdml::triplet::Triplet;
use probdml::{vmf, Error, Gaussian};

fn show(what: &str, err: Error) -> String {
    println!("{what:<44} {err}");
    err.to_string()
}

fn main() {
    // A raw network output that was never normalised.
    let e = show(
        "unnormalised mean direction",
        vmf::VonMisesFisher::new(&[3.0, 4.0], 1.0).unwrap_err(),
    );
    assert!(e.contains("`mu`") && e.contains("unit vector"));

    // A negative variance, third entry of the positive.
    let (m, v) = ([0.0; 3], [0.5; 3]);
    let triplet = Triplet {
        anchor: Gaussian { mu: &m, var: &v },
        positive: Gaussian {
            mu: &m,
            var: &[0.5, 0.5, -1.0],
        },
        negative: Gaussian { mu: &m, var: &v },
    };
    let e = show("negative variance", triplet.moments().unwrap_err());
    assert!(e.contains("`var_p`") && e.contains("element 2"));

    // A NaN embedding coordinate: its flat index.
    let x = [0.0f32, 1.0, f32::NAN, 0.5];
    let e = show(
        "NaN in the embeddings",
        Embeddings::from_f32(&x, 2).unwrap_err(),
    );
    assert!(e.contains("element 2"));

    // A batch kernel: the position of the bad R̄.
    let e = show(
        "R̄ = 1 in a batch",
        vmf::kappa_mle_batch(128, &[0.5, 0.9, 1.0], &mut [0.0; 3]).unwrap_err(),
    );
    assert!(e.contains("`rbars`") && e.contains("element 2"));

    // A cut-off beyond the database, named as passed.
    let task = Retrieval::leave_one_out(
        Embeddings::new(&[0.0, 1.0, 2.0], 1).unwrap(),
        &[0_u8, 0, 1],
        Distance::Euclidean,
    )
    .unwrap();
    let e = show(
        "k = 5 with three items",
        metrics::recall_at_k(&task, 5).unwrap_err(),
    );
    assert!(e.contains("`k`"));

    // Rows that do not divide into the dimension.
    let e = show(
        "5 numbers in rows of 2",
        vmf::mean_resultant(&[1.0, 0.0, 0.0, 1.0, 1.0], 2).unwrap_err(),
    );
    assert!(e.contains("not a multiple of the row width 2"));

    // PyTorch's "ignore" label −1 in a contrastive batch of f32-normalised rows: refused at its
    // index (cast with `as usize` it would be a fourth class and the loss a plausible number).
    let rows: [f32; 6] = [0.6, 0.8, 0.8, -0.6, -0.6, -0.8];
    let z: Vec<f64> = rows.iter().map(|&v| f64::from(v)).collect();
    let labels: [i64; 3] = [0, 1, -1];
    let e = show(
        "label -1 in a contrastive batch",
        contrastive::loss(&z, 2, &labels, 1.0, LossForm::Squared).unwrap_err(),
    );
    assert!(e.contains("`labels`") && e.contains("element 2"));
}
