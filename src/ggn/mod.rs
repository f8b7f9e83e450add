//! Generalised Gauss–Newton curvature of the contrastive loss: the Euclidean and Arccos splits, the positive / fixed / full approximations (spec chapter 04; LAM §3, App. E, F).
