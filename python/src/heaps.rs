//! Positions from Python: any iterable of non-negative integers (zeros are absent
//! heaps), or a string of heap sizes as the command line reads them.

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt, PyString, PyTuple};
use sicher::Position;

use crate::errors::{input, to_py};

/// The position a Python value names.
pub fn position(value: &Bound<'_, PyAny>) -> PyResult<Position> {
    if let Ok(text) = value.cast::<PyString>() {
        return Position::parse_line(&text.to_cow()?).map_err(to_py);
    }
    let mut heaps = Vec::new();
    for item in value.try_iter()? {
        heaps.push(heap(&item?)?);
    }
    Ok(Position::new(heaps))
}

/// One heap size: a non-negative integer that fits in 64 bits.
pub fn heap(item: &Bound<'_, PyAny>) -> PyResult<u64> {
    // `True` is an int to Python, but never meant as a heap of one.
    if item.is_instance_of::<PyBool>() {
        return Err(pyo3::exceptions::PyTypeError::new_err(
            "a heap size is an int, not a bool",
        ));
    }
    match item.extract::<u64>() {
        Ok(h) => Ok(h),
        Err(error) => {
            // Integers that are negative or too large are bad input; anything else
            // (a float, a string) is the caller's type error, as Python has it.
            if item.is_instance_of::<PyInt>() || item.hasattr("__index__")? {
                Err(input(format!(
                    "heap {} is not a non-negative integer that fits in 64 bits",
                    item.repr()?
                )))
            } else {
                Err(error)
            }
        }
    }
}

/// A position as a Python tuple of heap sizes, ascending.
pub fn to_tuple<'py>(py: Python<'py>, position: &Position) -> PyResult<Bound<'py, PyTuple>> {
    PyTuple::new(py, position.heaps())
}
