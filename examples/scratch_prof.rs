use std::time::Instant;
use tch::{Device, Kind, Tensor};
fn main() {
    let (b, f, len) = (64i64, 9217i64, 3i64);
    let x = Tensor::rand([b, f], (Kind::Float, Device::Cpu));
    let p = 4096i64;
    let pi = Tensor::randint(b, [p], (Kind::Int64, Device::Cpu));
    let pj = Tensor::randint(b, [p], (Kind::Int64, Device::Cpu));
    let cross = Tensor::rand([p, len], (Kind::Float, Device::Cpu));
    for _ in 0..3 {
        let t = Instant::now();
        let flat_pair = &pi * b + &pj;
        let ks = Tensor::arange(len, (Kind::Int64, Device::Cpu));
        let index = (ks.unsqueeze(1) * (b * b) + flat_pair.unsqueeze(0)).flatten(0, -1);
        let values = cross.narrow(1, 0, len).tr().contiguous().flatten(0, -1);
        let ck = Tensor::zeros([len * b * b], (Kind::Float, Device::Cpu))
            .index_add(0, &index, &values)
            .view([len, b, b]);
        let _ = ck.sum(Kind::Float).double_value(&[]);
        let t1 = t.elapsed();
        let cx = ck.view([len * b, b]).mm(&x).view([len, b, f]);
        let _ = cx.sum(Kind::Float).double_value(&[]);
        let t2 = t.elapsed();
        let part = (&cx * x.unsqueeze(0)).sum_dim_intlist(1i64, false, Kind::Float);
        let _ = part.sum(Kind::Float).double_value(&[]);
        let t3 = t.elapsed();
        println!("index_add {:?} mm {:?} reduce {:?}", t1, t2 - t1, t3 - t2);
    }
}
