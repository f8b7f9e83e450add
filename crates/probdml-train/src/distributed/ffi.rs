//! The C ABI of `crates/probdml-train/src/distributed/c10d/shim.cpp`. Every function that can fail returns NULL on
//! success or a `malloc`ed message (free it with `probdml_dist_free_message`): the shim catches
//! every C++ exception, none unwinds into Rust.

use std::os::raw::{c_char, c_int};

use torch_sys::C_tensor;

/// The shim's process group: a TCP store, a Gloo backend, an NCCL backend when built with it.
#[repr(C)]
pub(super) struct Group {
    _private: [u8; 0],
}

extern "C" {
    pub(super) fn probdml_dist_has_nccl() -> c_int;
    #[allow(clippy::too_many_arguments)]
    pub(super) fn probdml_dist_init(
        host: *const c_char,
        port: u16,
        rank: c_int,
        world: c_int,
        timeout_ms: i64,
        agent_store: c_int,
        want_nccl: c_int,
        out: *mut *mut Group,
    ) -> *mut c_char;
    pub(super) fn probdml_dist_free(group: *mut Group);
    pub(super) fn probdml_dist_free_message(text: *mut c_char);
    pub(super) fn probdml_dist_all_reduce_sum(group: *mut Group, t: *mut C_tensor) -> *mut c_char;
    pub(super) fn probdml_dist_broadcast(
        group: *mut Group,
        t: *mut C_tensor,
        root: c_int,
    ) -> *mut c_char;
    pub(super) fn probdml_dist_all_gather(
        group: *mut Group,
        input: *mut C_tensor,
        out: *mut *mut C_tensor,
    ) -> *mut c_char;
    pub(super) fn probdml_dist_barrier(group: *mut Group) -> *mut c_char;
    pub(super) fn probdml_dist_lost_ranks(group: *mut Group, lost: *mut c_int, cap: c_int)
        -> c_int;
}

/// Takes ownership of a message the shim returned; `None` for NULL (success).
pub(super) fn take_message(raw: *mut c_char) -> Option<String> {
    if raw.is_null() {
        return None;
    }
    // SAFETY: a non-NULL return is a NUL-terminated string the shim malloc'ed for us.
    let text = unsafe { std::ffi::CStr::from_ptr(raw) }
        .to_string_lossy()
        .into_owned();
    // SAFETY: freed once, by the allocator that made it.
    unsafe { probdml_dist_free_message(raw) };
    Some(text)
}
