//! The 32-byte kernel header.

use crate::driver::Driver;

/// Header dword 4 flag of a 64-bit binary.
const HEADER_64BIT: u32 = 8;
/// Header dword 4 flag of a kernel using printf.
const HEADER_PRINTF: u32 = 2;

/// The eight header dwords:
/// `[drv >= 1642.05 ? uavprivate : 0, 0, drv >= 1348.05 ? uavprivate : 0, hwlocal,
///   (64-bit ? 8 : 0) | (printf ? 2 : 0), 1, 0, 0]`.
pub fn header(
    drv: Driver,
    uavprivate: u32,
    hwlocal: u32,
    is_64bit: bool,
    printf: bool,
) -> [u32; 8] {
    [
        if drv.header_dword0_uavprivate() {
            uavprivate
        } else {
            0
        },
        0,
        if drv.constant_as_uav() { uavprivate } else { 0 },
        hwlocal,
        (if is_64bit { HEADER_64BIT } else { 0 }) | (if printf { HEADER_PRINTF } else { 0 }),
        1,
        0,
        0,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gates() {
        assert_eq!(
            header(Driver(164205), 80, 0, true, true),
            [80, 0, 80, 0, 10, 1, 0, 0]
        );
        assert_eq!(
            header(Driver(164204), 80, 0, false, false),
            [0, 0, 80, 0, 0, 1, 0, 0]
        );
        assert_eq!(
            header(Driver(134804), 80, 64, false, false),
            [0, 0, 0, 64, 0, 1, 0, 0]
        );
    }
}
