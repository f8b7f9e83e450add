//! Retrieval and uncertainty metrics (spec chapter 08).
