//! sicher for Python: the `sicher._sicher` extension module, re-exported by the
//! `sicher` package (python/sicher/__init__.py). Built with maturin by
//! `pip install ./python`; the library and the `sicher` binary need neither Python nor
//! pyo3.

mod batch;
mod custom;
mod errors;
mod game;
mod heaps;
mod interrupt;
mod partizan;
mod picture;
mod table;

use pyo3::prelude::*;

/// sicher: a solver for impartial heap games (Nim, octal and hexadecimal games,
/// subtraction games, Grundy's game, Wythoff, Moore's Nim) under normal and misère
/// play.
#[pymodule]
fn _sicher(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<game::PyGame>()?;
    m.add_class::<game::Answer>()?;
    m.add_class::<game::Solution>()?;
    m.add_class::<game::Quotient>()?;
    m.add_class::<table::PyTable>()?;
    m.add_class::<picture::Picture>()?;
    m.add("Error", py.get_type::<errors::Error>())?;
    m.add(
        "DamagedTableError",
        py.get_type::<errors::DamagedTableError>(),
    )?;
    m.add("ResourceError", py.get_type::<errors::ResourceError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
