use probdml::metrics::auroc;
use probdml::train::model::features_no_grad;
use probdml::train::run::{load_data, load_trained};
use std::path::PathBuf;
use tch::{Device, Kind};
fn main() {
    let dir = PathBuf::from(std::env::args().nth(1).unwrap());
    let trained = load_trained(&dir, Device::Cpu).unwrap();
    let data = load_data(&trained.config, &probdml::train::data::default_data_dir()).unwrap();
    let m = &trained.members[0];
    let mut scores = vec![];
    for set in [&data.test, &data.ood] {
        let t = probdml::train::method::TensorSet::new(set, Device::Cpu).unwrap();
        let f = features_no_grad(&m.net.backbone, &t.images, 500, false, Device::Cpu);
        let y = m.net.head.raw(&f);
        let fx = f
            .norm_scalaropt_dim(2.0, [1i64], false)
            .to_kind(Kind::Double);
        let ry = y
            .norm_scalaropt_dim(2.0, [1i64], false)
            .to_kind(Kind::Double);
        let (sw, _) = m.precision.as_ref().map(|p| p.std()).unwrap();
        // predictive std of y per output, summed, relative to |y|
        let var = f
            .square()
            .matmul(&sw.square().tr())
            .sum_dim_intlist(1i64, false, Kind::Double);
        let rel = var.sqrt() / &ry;
        scores.push((
            Vec::<f64>::try_from(&fx).unwrap(),
            Vec::<f64>::try_from(&ry).unwrap(),
            Vec::<f64>::try_from(&rel).unwrap(),
        ));
    }
    let inv = |v: &Vec<f64>| v.iter().map(|a| 1.0 / a).collect::<Vec<_>>();
    let neg = |v: &Vec<f64>| v.iter().map(|a| -a).collect::<Vec<_>>();
    println!(
        "AUROC |x| (larger=ood): {:.3}  (smaller=ood): {:.3}",
        auroc(&scores[0].0, &scores[1].0).unwrap(),
        auroc(&neg(&scores[0].0), &neg(&scores[1].0)).unwrap()
    );
    let ratio = |k: usize| {
        scores[k]
            .0
            .iter()
            .zip(&scores[k].1)
            .map(|(a, b)| a / b)
            .collect::<Vec<_>>()
    };
    println!("AUROC |x|/|y|: {:.3}", auroc(&ratio(0), &ratio(1)).unwrap());
    println!(
        "AUROC 1/|y|: {:.3}",
        auroc(&inv(&scores[0].1), &inv(&scores[1].1)).unwrap()
    );
    println!(
        "AUROC sqrt(sum var y)/|y|: {:.3}",
        auroc(&scores[0].2, &scores[1].2).unwrap()
    );
    let mean = |v: &Vec<f64>| v.iter().sum::<f64>() / v.len() as f64;
    println!(
        "mean |x| id {:.3} ood {:.3}; mean |y| id {:.3} ood {:.3}; rel id {:.4} ood {:.4}",
        mean(&scores[0].0),
        mean(&scores[1].0),
        mean(&scores[0].1),
        mean(&scores[1].1),
        mean(&scores[0].2),
        mean(&scores[1].2)
    );
}
