//! The AMD Catalyst OpenCL 1.2 kernel ABI (GCN 1.x), computed as CLRX computes it.
