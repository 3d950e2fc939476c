# shellcheck shell=bash
# Shared by setup-chroot, capture-radv and capture-rt (sourced, not run).
#
# chroot_check         checks root and GPUABI_MESA_ROOT, sets MESA_ROOT
# chroot_mount         mounts /proc and /dev in it and arranges their unmounting
#                      when the calling script exits
# chroot_run CMD...    runs CMD inside it with a clean environment
# extract_prolog DUMP  prints the Raytracing prolog from a RADV_DEBUG=...,prologs,asm dump

die() {
    echo "${0##*/}: $*" >&2
    exit 1
}

chroot_check() {
    [[ -n "${GPUABI_MESA_ROOT:-}" ]] ||
        die "GPUABI_MESA_ROOT is not set; set it to the chroot's directory," \
            "e.g. GPUABI_MESA_ROOT=/srv/mesa-root"
    [[ $EUID -eq 0 ]] || die "needs root (mmdebstrap, chroot, mount); run it with sudo"
    MESA_ROOT=$(realpath -m -- "$GPUABI_MESA_ROOT")
    [[ $MESA_ROOT != / ]] || die "GPUABI_MESA_ROOT must not be /"
}

CHROOT_MOUNTS=()

chroot_umount() {
    local i
    for ((i = ${#CHROOT_MOUNTS[@]} - 1; i >= 0; i--)); do
        umount -R "${CHROOT_MOUNTS[i]}" 2>/dev/null || umount -lR "${CHROOT_MOUNTS[i]}" || true
    done
    CHROOT_MOUNTS=()
}

chroot_mount() {
    trap chroot_umount EXIT
    trap 'exit 130' INT TERM
    if ! mountpoint -q "$MESA_ROOT/proc"; then
        mount -t proc proc "$MESA_ROOT/proc"
        CHROOT_MOUNTS+=("$MESA_ROOT/proc")
    fi
    if ! mountpoint -q "$MESA_ROOT/dev"; then
        mount --rbind /dev "$MESA_ROOT/dev"
        mount --make-rslave "$MESA_ROOT/dev"
        CHROOT_MOUNTS+=("$MESA_ROOT/dev")
    fi
}

chroot_run() {
    env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
        DEBIAN_FRONTEND=noninteractive chroot "$MESA_ROOT" "$@"
}

# Prints the Raytracing prolog's disassembly from a RADV_DEBUG=...,prologs,asm dump: from
# its title to the first empty line after its code.
extract_prolog() {
    awk '
        /^Raytracing prolog$/ && !found { found = 1 }
        found && started && /^$/ { exit }
        found { print; if ($0 ~ /^BB[0-9]+:$/) started = 1 }
        END { if (!found) exit 1 }
    ' "$1"
}
