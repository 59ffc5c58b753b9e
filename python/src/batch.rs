//! The positions of `Table.probe_many`: a 2-D integer array, checked by its dtype
//! before anything is converted (a cast would truncate floats, wrap large unsigned
//! values to negative ones and turn NaN into a number), or a list of positions.

use numpy::{PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

use crate::errors::input;
use crate::heaps::heap;

/// A batch of positions, one row each, zeros for absent heaps.
pub struct Batch<'py> {
    /// Heaps per row.
    pub width: usize,
    /// Rows.
    pub rows: usize,
    data: Data<'py>,
}

enum Data<'py> {
    Signed(PyReadonlyArray2<'py, i64>),
    Unsigned(PyReadonlyArray2<'py, u64>),
    Listed(Vec<u64>),
}

/// A batch's cells, row after row, as the probing (without the GIL) reads them.
#[derive(Clone, Copy)]
pub enum Cells<'a> {
    /// Signed integers (negative ones are refused row by row).
    Signed(&'a [i64]),
    /// Unsigned 64-bit integers, every value a heap size.
    Unsigned(&'a [u64]),
}

impl<'py> Batch<'py> {
    /// The batch `positions` gives, refusing arrays of anything but integers.
    pub fn of(py: Python<'py>, positions: &Bound<'py, PyAny>) -> PyResult<Self> {
        if positions.is_instance_of::<PyString>() || positions.is_instance_of::<PyBytes>() {
            return Err(PyTypeError::new_err(
                "probe_many takes a 2-D integer numpy array or a list of positions, not a string",
            ));
        }
        let numpy = py.import("numpy")?;
        let array = if positions.is_instance(&numpy.getattr("ndarray")?)? {
            positions.clone()
        } else if positions.hasattr("__array__")? {
            numpy.call_method1("asarray", (positions,))?
        } else {
            return Self::listed(positions);
        };
        let dtype = array.getattr("dtype")?;
        let kind: String = dtype.getattr("kind")?.extract()?;
        let size: usize = dtype.getattr("itemsize")?.extract()?;
        if kind != "i" && kind != "u" {
            return Err(PyTypeError::new_err(format!(
                "probe_many takes an array of integers (heap sizes), not of {}; convert it with .astype(numpy.int64) if its values are whole numbers",
                dtype.str()?
            )));
        }
        let ndim: usize = array.getattr("ndim")?.extract()?;
        if ndim != 2 {
            return Err(input("probe_many takes a 2-D array: one row a position"));
        }
        // Every integer type but uint64 fits in int64 without loss; uint64 is read as it
        // is. Row-major native-endian arrays of those two are used in place.
        let target = if kind == "u" && size == 8 {
            "uint64"
        } else {
            "int64"
        };
        let kwargs = pyo3::types::PyDict::new(py);
        kwargs.set_item("dtype", target)?;
        let array = numpy.call_method("ascontiguousarray", (array,), Some(&kwargs))?;
        let data = if target == "uint64" {
            Data::Unsigned(array.extract()?)
        } else {
            Data::Signed(array.extract()?)
        };
        let shape = match &data {
            Data::Signed(a) => a.shape().to_vec(),
            Data::Unsigned(a) => a.shape().to_vec(),
            Data::Listed(_) => unreachable!("arrays only"),
        };
        Ok(Batch {
            width: shape[1],
            rows: shape[0],
            data,
        })
    }

    /// A list (any iterable) of positions of any lengths, each heap checked as
    /// `probe` checks it.
    fn listed(positions: &Bound<'py, PyAny>) -> PyResult<Self> {
        let mut list: Vec<Vec<u64>> = Vec::new();
        for item in positions.try_iter()? {
            let item = item?;
            let mut row = Vec::new();
            for h in item.try_iter()? {
                row.push(heap(&h?)?);
            }
            list.push(row);
        }
        let width = list.iter().map(Vec::len).max().unwrap_or(0);
        let rows = list.len();
        let mut all = vec![0u64; rows * width];
        for (i, row) in list.iter().enumerate() {
            all[i * width..i * width + row.len()].copy_from_slice(row);
        }
        Ok(Batch {
            width,
            rows,
            data: Data::Listed(all),
        })
    }

    /// The cells, row after row.
    pub fn cells(&self) -> PyResult<Cells<'_>> {
        Ok(match &self.data {
            Data::Signed(a) => Cells::Signed(a.as_slice()?),
            Data::Unsigned(a) => Cells::Unsigned(a.as_slice()?),
            Data::Listed(v) => Cells::Unsigned(v),
        })
    }
}
