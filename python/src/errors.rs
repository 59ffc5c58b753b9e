//! sicher's errors as Python exceptions: bad input is `sicher.Error` (a `ValueError`),
//! damaged tables and refused work are its subclasses, file trouble is `OSError` (with
//! the usual subclasses), an interruption is `KeyboardInterrupt`.

use pyo3::create_exception;
use pyo3::exceptions::{
    PyFileExistsError, PyFileNotFoundError, PyKeyboardInterrupt, PyOSError, PyRuntimeError,
    PyValueError,
};
use pyo3::PyErr;
use sicher::ErrorKind;

create_exception!(
    sicher,
    Error,
    PyValueError,
    "Bad input: an unknown game, a malformed spec, a negative heap, a position outside a table, a request the rules cannot answer."
);
create_exception!(
    sicher,
    DamagedTableError,
    Error,
    "A table or quotient file that is damaged, truncated, of another format version, or written for another game."
);
create_exception!(
    sicher,
    ResourceError,
    Error,
    "Work refused because it would not fit: memory, sizes, counts, or a budget that ran out."
);

/// The Python exception for a library error, chosen by its kind.
pub fn to_py(error: sicher::Error) -> PyErr {
    let text = error.to_string();
    let kind = error.kind();
    match kind {
        ErrorKind::NotFound | ErrorKind::Io => {
            let source = error.io_error();
            let errno = source.and_then(std::io::Error::raw_os_error);
            let path = error.path().map(|path| path.display().to_string());
            // Python words it `[Errno 2] No such file or directory: 'path'`.
            let os = source.map_or_else(|| text.clone(), ToString::to_string);
            let message = match os.find(" (os error") {
                Some(at) => os[..at].to_string(),
                None => match &path {
                    Some(path) => format!("{path}: {os}"),
                    None => os,
                },
            };
            let filename = path.unwrap_or_default();
            match (kind, errno) {
                (ErrorKind::NotFound, Some(errno)) => {
                    PyFileNotFoundError::new_err((errno, message, filename))
                }
                (ErrorKind::NotFound, None) => PyFileNotFoundError::new_err(message),
                (_, Some(errno)) => PyOSError::new_err((errno, message, filename)),
                (_, None) => PyOSError::new_err(message),
            }
        }
        ErrorKind::Exists => PyFileExistsError::new_err(text),
        ErrorKind::Interrupted => PyKeyboardInterrupt::new_err(text),
        ErrorKind::Internal => PyRuntimeError::new_err(text),
        ErrorKind::Damaged => DamagedTableError::new_err(text),
        ErrorKind::Resource => ResourceError::new_err(text),
        _ => Error::new_err(text),
    }
}

/// Bad input, from the bindings themselves.
pub fn input(message: impl Into<String>) -> PyErr {
    Error::new_err(message.into())
}

/// The `force=` of a call that replaces a file, with `overwrite=`, its old name, still
/// taken (with a `DeprecationWarning`): true when either says so; both at once must
/// agree.
pub fn force_or_overwrite(
    py: pyo3::Python<'_>,
    force: Option<bool>,
    overwrite: Option<bool>,
) -> pyo3::PyResult<bool> {
    let Some(old) = overwrite else {
        return Ok(force.unwrap_or(false));
    };
    if force.is_some_and(|force| force != old) {
        return Err(input(
            "force= and overwrite= disagree: give force= alone (overwrite= is its deprecated old name)",
        ));
    }
    pyo3::PyErr::warn(
        py,
        &py.get_type::<pyo3::exceptions::PyDeprecationWarning>(),
        c"overwrite= is deprecated: use force= (as the command line's --force)",
        1,
    )?;
    Ok(old)
}
