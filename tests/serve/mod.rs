//! `sicher serve`: its JSON API against the library's and the command line's own answers,
//! the Universal Web API against an independent remoteness reference and what
//! GamesmanUni needs, the bounds a public server keeps, and a load run on loopback. Each
//! test starts its own server on a free port of 127.0.0.1.

mod api;
mod http;
mod limits;
mod load;
mod partizan;
mod uwapi;
