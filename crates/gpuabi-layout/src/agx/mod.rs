//! The Apple AGX non-monolithic shader ABI (Mesa Asahi): vertex and fragment layouts, prolog/epilog keys, and the part linker.
