pub fn all() -> Vec<pbm_prelim::Figure> { vec![] }
