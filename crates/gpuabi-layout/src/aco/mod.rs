//! The ACO/RADV function-call ABI: register blocks, preserved/clobbered ranges, register limits and parameter assignment.
