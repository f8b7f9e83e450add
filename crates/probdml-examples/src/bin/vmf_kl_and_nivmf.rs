//! The KL divergence between two vMF laws, and the non-isotropic vMF of the nivMF paper.
use probdml::nivmf::NonIsotropicVmf;
use probdml::vmf::VonMisesFisher;

fn main() -> Result<(), probdml::Error> {
    // M = 3, κ_z = 5, κ_p = 2, the mean directions one radian apart: KL = 1.033723 (the
    // nivMF supplement's eq. (39) gives 1.817246; book chapter 06 refutes it).
    let z = VonMisesFisher::new(&[1.0, 0.0, 0.0], 5.0)?;
    let p = VonMisesFisher::new(&[1f64.cos(), 1f64.sin(), 0.0], 2.0)?;
    let kl = z.kl(&p)?;
    println!("KL(vMF_z ‖ vMF_p) = {kl:.9}");
    assert!((kl - 1.033_723).abs() < 1e-6);
    assert_eq!(z.kl(&z)?, 0.0);

    // With equal concentrations the nivMF is the vMF: the same density at any point.
    let mu = [0.0, 0.6, 0.8];
    let x = [0.48, 0.6, 0.64];
    let iso = NonIsotropicVmf::new(&mu, &[7.0, 7.0, 7.0])?.ln_pdf(&x)?;
    let vmf = VonMisesFisher::new(&mu, 7.0)?.ln_pdf(&x)?;
    println!("nivMF(κ = 7·1) = {iso:.12}, vMF(κ = 7) = {vmf:.12}");
    assert!((iso - vmf).abs() < 1e-13);

    // Anisotropic: concentrated along the first axis; the density is higher near μ.
    let law = NonIsotropicVmf::new(&mu, &[40.0, 5.0, 5.0])?;
    let (near, far) = (law.ln_pdf(&mu)?, law.ln_pdf(&[1.0, 0.0, 0.0])?);
    println!("ln f(μ) = {near:.6}, ln f(e₁) = {far:.6}");
    assert!(near > far);
    Ok(())
}
