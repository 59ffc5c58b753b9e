//! A bounded load run on loopback: 20 000 requests from 64 clients on kept-alive
//! connections, with slow clients (headers a byte at a time) and stalled ones (a
//! connection and nothing more) among them. Every request is answered, the slow ones
//! hold nobody up, and the server's memory stays flat. The numbers are printed
//! (`--nocapture`) for the README.

use std::io::{BufReader, Write};
use std::net::TcpStream;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::http::{read_response, Server};

const REQUESTS: usize = 20_000;
const CLIENTS: usize = 64;
const SLOW: usize = 6;
const STALLED: usize = 6;

/// The server's resident memory and its peak, in KiB, from /proc.
fn memory_kib(pid: u32) -> (u64, u64) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

fn paths(i: usize) -> String {
    let (a, b, c) = (i % 13 + 1, i % 7 + 2, i % 5 + 3);
    match i % 4 {
        0 => format!("/api/check?game=kayles&heaps={a},{b},{c}"),
        1 => format!("/api/check?game=nim&play=misere&heaps={a},{b},{c}"),
        2 => format!(
            "/uwapi/nim/normal/positions/?p=1_{}-{}",
            a % 5 + 1,
            b % 4 + 1
        ),
        _ => format!(
            "/api/position?game=subtraction:1,3,4&heaps={},{}",
            a % 6 + 1,
            c
        ),
    }
}

#[test]
#[cfg(target_os = "linux")]
fn twenty_thousand_requests_with_slow_clients_among_them() {
    let server = Server::start(&["--header-timeout", "2"]);
    let addr = server.addr;
    let pid = server.child.id();
    // Warm up, then note the memory before the run.
    for i in 0..200 {
        assert_eq!(server.get(&paths(i)).status, 200, "{}", paths(i));
    }
    let (rss_before, _) = memory_kib(pid);
    let stop = Arc::new(AtomicUsize::new(0));
    let mut nuisances = Vec::new();
    for _ in 0..STALLED {
        nuisances.push(std::thread::spawn(move || {
            let stream = TcpStream::connect(addr).unwrap();
            std::thread::sleep(Duration::from_secs(3));
            drop(stream);
        }));
    }
    for s in 0..SLOW {
        let stop = Arc::clone(&stop);
        nuisances.push(std::thread::spawn(move || {
            while stop.load(Ordering::Relaxed) == 0 {
                let Ok(mut stream) = TcpStream::connect(addr) else {
                    break;
                };
                for byte in format!(
                    "GET /api/check?game=nim&heaps={} HTTP/1.1\r\nHost: x\r\n\r\n",
                    s + 1
                )
                .bytes()
                {
                    if stream.write_all(&[byte]).is_err() || stop.load(Ordering::Relaxed) != 0 {
                        break;
                    }
                    std::thread::sleep(Duration::from_millis(20));
                }
            }
        }));
    }
    let next = Arc::new(AtomicUsize::new(0));
    let started = Instant::now();
    let clients: Vec<_> = (0..CLIENTS)
        .map(|_| {
            let next = Arc::clone(&next);
            std::thread::spawn(move || {
                let mut latencies = Vec::new();
                let stream = TcpStream::connect(addr).unwrap();
                stream
                    .set_read_timeout(Some(Duration::from_secs(30)))
                    .unwrap();
                let mut writer = stream.try_clone().unwrap();
                let mut reader = BufReader::new(stream);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= REQUESTS {
                        break;
                    }
                    let sent = Instant::now();
                    let head = format!("GET {} HTTP/1.1\r\nHost: x\r\n\r\n", paths(i));
                    writer.write_all(head.as_bytes()).unwrap();
                    let response = read_response(&mut reader).expect("a response");
                    assert_eq!(response.status, 200, "{}: {}", paths(i), response.text());
                    latencies.push(sent.elapsed());
                }
                latencies
            })
        })
        .collect();
    let mut latencies: Vec<Duration> = clients
        .into_iter()
        .flat_map(|c| c.join().unwrap())
        .collect();
    let elapsed = started.elapsed();
    stop.store(1, Ordering::Relaxed);
    for n in nuisances {
        n.join().unwrap();
    }
    let (rss_after, peak) = memory_kib(pid);
    latencies.sort();
    let at = |q: f64| latencies[((latencies.len() as f64 * q) as usize).min(latencies.len() - 1)];
    eprintln!(
        "load: {} requests from {CLIENTS} clients ({SLOW} slow, {STALLED} stalled beside) in {:.2} s: {:.0} requests/s; latency median {:.2} ms, p99 {:.2} ms, max {:.2} ms; server memory {} -> {} KiB (peak {} KiB)",
        latencies.len(),
        elapsed.as_secs_f64(),
        latencies.len() as f64 / elapsed.as_secs_f64(),
        at(0.5).as_secs_f64() * 1e3,
        at(0.99).as_secs_f64() * 1e3,
        latencies.last().unwrap().as_secs_f64() * 1e3,
        rss_before,
        rss_after,
        peak
    );
    assert_eq!(latencies.len(), REQUESTS);
    assert!(at(0.99) < Duration::from_secs(2), "p99 {:?}", at(0.99));
    // Flat memory: the run adds no more than a few tens of MiB to what the warm-up held.
    assert!(
        rss_after < rss_before + 64 * 1024,
        "{rss_before} -> {rss_after} KiB"
    );
}
