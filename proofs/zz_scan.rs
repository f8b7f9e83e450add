use probdml::vmf;
#[test]
fn scan() {
    for &k in &[5.0f64, 10.0, 20.0, 30.0, 40.0, 49.0, 51.0] {
        let want = 1.0 / k - 2.0 * (-2.0 * k).exp() / (-(-2.0 * k).exp_m1());
        let (hi, lo) = vmf::exact::mean_resultant_length_dd(3, k);
        let dd = (1.0 - hi) - lo;
        let f = vmf::mean_resultant_length_complement(3, k);
        let a = vmf::mean_resultant_length(3, k);
        println!("κ={k}: fast {:.2e} dd {:.2e}; A fast - hi = {:e} (ulp {:e})", f / want - 1.0, dd / want - 1.0, a - hi, hi.next_up() - hi);
    }
}
