//! What a server strangers can reach must keep: bad input is a JSON 4xx with a reason,
//! requests are capped, searches stop at their budget with a 503 and the server goes
//! on, every answer can be read cross-origin, tables come only from `--tables`,
//! malformed HTTP and stalled clients do not hold it up, and Ctrl-C stops it cleanly.

use std::io::{BufReader, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use super::http::{read_response, request, Server};
use crate::common;

fn assert_json_error(server: &Server, path: &str, status: u16) {
    let response = server.get(path);
    assert_eq!(response.status, status, "{path}: {}", response.text());
    let reason = response.json()["error"].as_str().unwrap().to_string();
    assert!(
        !reason.is_empty() && !reason.contains('\n'),
        "{path}: {reason:?}"
    );
    assert_eq!(
        response.header("access-control-allow-origin"),
        Some("*"),
        "{path}"
    );
}

#[test]
fn bad_input_gets_a_json_reason_and_a_4xx() {
    let server = Server::start(&[]);
    for (path, status) in [
        ("/api/check?game=nosuchgame&heaps=3", 400),
        ("/api/check?game=/etc/passwd&heaps=3", 400),
        ("/api/check?game=games/kayles.toml&heaps=3", 400),
        ("/api/check?game=kayles&heaps=3,x", 400),
        ("/api/check?game=kayles&heaps=-3", 400),
        ("/api/check?game=kayles&heaps=99999999999999999999999", 400),
        ("/api/check?game=kayles", 400),
        ("/api/check?heaps=3", 400),
        ("/api/check?game=kayles&play=sideways&heaps=3", 400),
        ("/api/check?game=octal:9.9&heaps=3", 400),
        ("/api/check?game=script:abc&heaps=3", 400),
        ("/api/solve?game=kayles&heaps=3&remoteness=maybe", 400),
        ("/api/solution?game=kayles&max=lots", 400),
        ("/api/position?game=kayles&heaps=", 200),
        ("/api/nosuchroute", 404),
        ("/uwapi/nosuchgame/", 404),
        ("/uwapi/kayles/sideways/", 404),
        ("/uwapi/kayles/normal/positions/?p=3-4-5", 400),
        ("/uwapi/kayles/normal/positions/?p=3_4_x", 400),
        ("/uwapi/kayles/normal/positions/", 400),
        ("/api/table?game=kayles&heaps=3,4", 404),
    ] {
        if status == 200 {
            assert_eq!(server.get(path).status, 200, "{path}");
        } else {
            assert_json_error(&server, path, status);
        }
    }
    let wrong_method = request(
        server.addr,
        "DELETE",
        "/api/check?game=nim&heaps=1",
        &[],
        b"",
    );
    assert_eq!(wrong_method.status, 405);
    assert!(wrong_method.json()["error"].is_string());
}

#[test]
fn requests_are_capped() {
    let server = Server::start(&["--max-batch", "10", "--max-body", "1"]);
    let long_spec = format!("octal:0.{}", "7".repeat(100));
    assert_json_error(
        &server,
        &format!("/api/check?game={long_spec}&heaps=3"),
        413,
    );
    let many_heaps = vec!["1"; 100].join(",");
    assert_json_error(
        &server,
        &format!("/api/check?game=nim&heaps={many_heaps}"),
        413,
    );
    // A script runs for every heap up to the largest before anything is answered.
    assert_json_error(&server, "/api/check?game=kayles-script&heaps=3,300", 413);
    assert_json_error(
        &server,
        "/uwapi/kayles-script/normal/positions/?p=1_300",
        413,
    );
    assert_json_error(&server, "/api/plot.png?game=kayles-script&max=1000", 413);
    let started = Instant::now();
    for play in ["normal", "misere"] {
        let path = format!("/api/position?game=kayles-script&play={play}&heaps=3,4,5");
        assert_eq!(server.get(&path).status, 200, "{path}");
    }
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    assert_json_error(&server, "/api/map.png?game=nim&max=100000", 413);
    assert_json_error(&server, "/api/map.png?game=nim&max=50&scale=1000", 413);
    assert_json_error(&server, "/api/plot.png?game=kayles&max=10000000", 413);
    assert_json_error(&server, "/api/solution?game=kayles&max=100000000", 413);
    let batch = "1\n".repeat(20);
    let response = server.post("/api/check?game=nim", batch.as_bytes());
    assert_eq!(response.status, 413, "{}", response.text());
    let body = vec![b'1'; 4096];
    let response = server.post("/api/check?game=nim", &body);
    assert_eq!(response.status, 413, "{}", response.text());
    assert!(response.json()["error"].is_string());
    // A description whose rules are a script is refused from the network...
    let script = std::fs::read_to_string("games/kayles-script.toml").unwrap();
    let response = server.post("/api/describe", script.as_bytes());
    assert_eq!(response.status, 403, "{}", response.text());
    // ...a plain one is read.
    let plain = "name = \"mine\"\nrules = \"subtraction\"\nsubtraction = [1, 2, 5]\n";
    let response = server.post("/api/describe", plain.as_bytes());
    assert_eq!(response.status, 200, "{}", response.text());
    assert_eq!(response.json()["spec"], "subtraction:1,2,5");
}

#[test]
fn a_search_past_its_budget_is_a_503_and_the_server_goes_on() {
    let server = Server::start(&["--time-limit", "0.3", "--searches", "1"]);
    let started = Instant::now();
    // Misère Wythoff on five heaps: no theory answers it, and the search needs far
    // longer than 0.3 s.
    let response = server.get("/api/check?game=wythoff&play=misere&heaps=30,40,50,60,70");
    assert_eq!(response.status, 503, "{}", response.text());
    assert!(response.json()["error"]
        .as_str()
        .unwrap()
        .contains("time-limit"));
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    // Nim-values of rules the plain mex engine computes (quadratic, without a deadline)
    // are computed no further than the library's default (as the command line does,
    // which takes as long for them): a large heap is refused, not computed for minutes.
    let started = Instant::now();
    let response = server.get("/api/check?game=hex:0.8F&heaps=150000");
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "{:?}: {}",
        started.elapsed(),
        response.text()
    );
    assert!(response.json()["error"].is_string(), "{}", response.text());
    // The slot is free again and the next answer comes at once.
    let after = server.json("/api/check?game=kayles&heaps=3,4,5", 200);
    assert_eq!(after["win"], true);
}

#[test]
fn every_answer_can_be_read_cross_origin() {
    let server = Server::start(&[]);
    for path in [
        "/",
        "/app.js",
        "/api/games",
        "/api/check?game=nim&heaps=1,2",
        "/uwapi/",
        "/uwapi/nim/",
        "/nothing",
    ] {
        let response = request(
            server.addr,
            "GET",
            path,
            &[("Origin", "http://localhost:3000")],
            b"",
        );
        assert_eq!(
            response.header("access-control-allow-origin"),
            Some("*"),
            "{path}"
        );
    }
    let preflight = request(
        server.addr,
        "OPTIONS",
        "/uwapi/nim/normal/positions/?p=1_3-4-5",
        &[
            ("Origin", "http://localhost:3000"),
            ("Access-Control-Request-Method", "GET"),
        ],
        b"",
    );
    assert_eq!(preflight.status, 204);
    assert_eq!(preflight.header("access-control-allow-origin"), Some("*"));
    assert!(preflight
        .header("access-control-allow-methods")
        .unwrap()
        .contains("GET"));
}

#[test]
fn tables_come_from_the_tables_directory_only() {
    let dir = tempfile::tempdir().unwrap();
    let table = dir.path().join("kayles.table");
    let (code, _, err) = common::run(
        &[
            "table",
            "kayles",
            "--total",
            "10",
            "-o",
            table.to_str().unwrap(),
            "--quiet",
        ],
        None,
    );
    assert_eq!(code, 0, "{err}");
    let server = Server::start(&["--tables", dir.path().to_str().unwrap()]);
    let entry = server.json("/api/table?game=kayles&heaps=3,5", 200);
    assert_eq!(entry["source"], "table");
    let expected = server.json("/api/check?game=kayles&heaps=3,5&remoteness=skip", 200);
    assert_eq!(entry["win"], expected["win"]);
    // Outside the table: a 404 with the reason, not a search.
    let outside = server.get("/api/table?game=kayles&heaps=30,50");
    assert_eq!(outside.status, 404, "{}", outside.text());
}

#[test]
fn malformed_and_stalled_clients_are_answered_or_cut_off() {
    let server = Server::start(&["--header-timeout", "1"]);
    // Garbage: a 400 or a closed connection, never a hang.
    let mut stream = TcpStream::connect(server.addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    stream.write_all(b"NOT HTTP AT ALL\r\n\r\n").unwrap();
    let mut reader = BufReader::new(stream);
    if let Some(response) = read_response(&mut reader) {
        assert_eq!(response.status, 400);
    }
    // Headers that never end: the connection is closed once the timeout passes.
    let started = Instant::now();
    let mut stalled = TcpStream::connect(server.addr).unwrap();
    stalled
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    stalled.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n").unwrap();
    let mut rest = Vec::new();
    let _ = stalled.read_to_end(&mut rest);
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    // Meanwhile everyone else is served.
    assert_eq!(server.get("/api/games").status, 200);
    // A header line larger than hyper's buffer: 431 or a closed connection.
    let huge = format!("GET /?{} HTTP/1.1\r\nHost: x\r\n\r\n", "a".repeat(200_000));
    let mut stream = TcpStream::connect(server.addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    let _ = stream.write_all(huge.as_bytes());
    let mut reader = BufReader::new(stream);
    if let Some(response) = read_response(&mut reader) {
        assert!(response.status >= 400, "{}", response.status);
    }
}

#[test]
fn ctrl_c_stops_the_server_cleanly() {
    let mut server = Server::start(&[]);
    assert_eq!(server.get("/api/games").status, 200);
    let pid = server.child.id().to_string();
    let status = std::process::Command::new("kill")
        .args(["-INT", &pid])
        .status()
        .unwrap();
    assert!(status.success());
    let started = Instant::now();
    loop {
        if let Some(status) = server.child.try_wait().unwrap() {
            assert!(status.success(), "{status:?}");
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(10), "still running");
        std::thread::sleep(Duration::from_millis(50));
    }
}
