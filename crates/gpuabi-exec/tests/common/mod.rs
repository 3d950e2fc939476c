pub mod versus_llc;
