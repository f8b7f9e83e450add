use probdml::vmf;
#[test]
fn scan() {
    for dim in [20usize, 25, 28, 30, 32, 34, 36, 38, 40, 45, 50, 60] {
        let mut worst = (0.0f64, 0.0f64);
        for i in 1..20000 {
            let rbar = i as f64 / 20000.0;
            let mle = vmf::kappa_mle(dim, rbar).unwrap();
            let e2 = (vmf::kappa_sra(dim, rbar, 2).unwrap() - mle).abs() / mle;
            if e2 > worst.0 { worst = (e2, rbar); }
        }
        println!("M={dim}: worst e2 {:.3e} at R̄={}", worst.0, worst.1);
    }
}
