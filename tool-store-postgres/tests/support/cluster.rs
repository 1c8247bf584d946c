//! A PostgreSQL cluster of a test's own (`initdb` + `pg_ctl` in a temp
//! dir on a free port, as the `postgres` user when the test runs as root),
//! which the test can freeze (`SIGSTOP` to the postmaster and every backend,
//! as a network partition looks to the client) and thaw; stopped and
//! removed when the value is dropped.

use std::io::Write as _;
use std::os::unix::fs::MetadataExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use super::REQUIRE;

/// A running cluster of one test.
pub struct Cluster {
    dir: PathBuf,
    bin: PathBuf,
    port: u16,
    /// Run the cluster's commands as `postgres` (the test runs as root).
    as_postgres: bool,
}

/// Where `initdb` and `pg_ctl` are: the directory of the `initdb` on
/// `PATH` (following a symlink), else the newest `/usr/lib/postgresql/*/bin`.
fn pg_bin() -> Option<PathBuf> {
    let on_path = std::env::var_os("PATH").and_then(|path| {
        std::env::split_paths(&path)
            .map(|dir| dir.join("initdb"))
            .find(|initdb| initdb.is_file())
    });
    if let Some(initdb) = on_path {
        let initdb = std::fs::canonicalize(&initdb).unwrap_or(initdb);
        return initdb.parent().map(Path::to_path_buf);
    }
    let mut versions: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .flatten()
        .map(|entry| entry.path().join("bin"))
        .filter(|bin| bin.join("initdb").is_file())
        .collect();
    versions.sort();
    versions.pop()
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .map(|address| address.port())
        .expect("a free port")
}

impl Cluster {
    /// Starts a new cluster for `test`; `None` (with a line on stderr)
    /// when `initdb` is not installed and `TOOL_CONTRACT_REQUIRE_POSTGRES`
    /// is not `1`.
    pub fn start(test: &str) -> Option<Cluster> {
        let Some(bin) = pg_bin() else {
            let message = "initdb is not installed (neither on PATH nor in /usr/lib/postgresql)";
            if std::env::var(REQUIRE).as_deref() == Ok("1") {
                panic!("{message} ({REQUIRE}=1)");
            }
            let _ = writeln!(
                std::io::stderr(),
                "skipped {test}: {message}; install PostgreSQL's server binaries to run this test"
            );
            return None;
        };
        // /proc/self belongs to the process's effective user.
        let as_postgres = std::fs::metadata("/proc/self").is_ok_and(|meta| meta.uid() == 0);
        let dir = std::env::temp_dir().join(format!("tc_cluster_{}_{test}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("the cluster's dir is made");
        let cluster = Cluster {
            dir,
            bin,
            port: free_port(),
            as_postgres,
        };
        if as_postgres {
            cluster.run("chown", &["postgres:", path(&cluster.dir)]);
        }
        let data = cluster.data();
        cluster.pg(
            "initdb",
            &[
                "-D",
                path(&data),
                "-A",
                "trust",
                "-U",
                "postgres",
                "--no-sync",
            ],
        );
        let options = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1 -c fsync=off",
            cluster.port,
            cluster.dir.display()
        );
        let log = cluster.dir.join("log");
        cluster.pg(
            "pg_ctl",
            &[
                "-D",
                path(&data),
                "-o",
                &options,
                "-l",
                path(&log),
                "-w",
                "start",
            ],
        );
        Some(cluster)
    }

    /// A `key=value` connection string for its `postgres` database.
    pub fn url(&self) -> String {
        format!(
            "host=127.0.0.1 port={} user=postgres dbname=postgres",
            self.port
        )
    }

    fn data(&self) -> PathBuf {
        self.dir.join("data")
    }

    /// The postmaster and every process it started (backends, background
    /// workers).
    fn processes(&self) -> Vec<u32> {
        let pidfile = std::fs::read_to_string(self.data().join("postmaster.pid"))
            .expect("the postmaster's pid file");
        let postmaster: u32 = pidfile
            .lines()
            .next()
            .and_then(|line| line.trim().parse().ok())
            .expect("the pid file starts with the postmaster's pid");
        let mut pids = vec![postmaster];
        for entry in std::fs::read_dir("/proc").expect("/proc").flatten() {
            let Some(pid) = entry
                .file_name()
                .to_str()
                .and_then(|n| n.parse::<u32>().ok())
            else {
                continue;
            };
            let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
                continue;
            };
            // `pid (comm) state ppid …`; comm may hold spaces and parens.
            let parent = stat
                .rsplit_once(')')
                .and_then(|(_, rest)| rest.split_whitespace().nth(1))
                .and_then(|ppid| ppid.parse::<u32>().ok());
            if parent == Some(postmaster) {
                pids.push(pid);
            }
        }
        pids
    }

    /// Stops every process of the cluster (`SIGSTOP`): the server accepts
    /// TCP connections (the kernel's backlog) and reads nothing; returns
    /// how many processes were stopped.
    pub fn freeze(&self) -> usize {
        // The postmaster first, so that it starts no backend meanwhile.
        let pids = self.processes();
        self.signal("-STOP", &pids[..1]);
        let pids = self.processes();
        self.signal("-STOP", &pids);
        pids.len()
    }

    /// Lets every process of the cluster run again (`SIGCONT`).
    pub fn thaw(&self) {
        let pids = self.processes();
        self.signal("-CONT", &pids);
    }

    fn signal(&self, signal: &str, pids: &[u32]) {
        let pids: Vec<String> = pids.iter().map(u32::to_string).collect();
        let mut args = vec![signal];
        args.extend(pids.iter().map(String::as_str));
        // A backend may have exited meanwhile: its failure is ignored.
        let _ = Command::new("kill").args(&args).output();
    }

    /// Runs one of the server's programs, as `postgres` when needed.
    fn pg(&self, program: &str, args: &[&str]) -> Output {
        let program = self.bin.join(program);
        if self.as_postgres {
            let mut all = vec!["-u", "postgres", "--", path(&program)];
            all.extend_from_slice(args);
            self.run("runuser", &all)
        } else {
            self.run(path(&program), args)
        }
    }

    fn run(&self, program: &str, args: &[&str]) -> Output {
        let output = Command::new(program)
            .args(args)
            .current_dir(&self.dir)
            .output()
            .unwrap_or_else(|error| panic!("{program} does not start: {error}"));
        assert!(
            output.status.success(),
            "{program} {args:?} failed: {}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        output
    }
}

fn path(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 temp path")
}

impl Drop for Cluster {
    fn drop(&mut self) {
        // A frozen cluster cannot stop: thaw it first.
        if self.data().join("postmaster.pid").exists() {
            self.thaw();
            let data = self.data();
            let program = self.bin.join("pg_ctl");
            let args = ["-D", path(&data), "-m", "immediate", "-w", "stop"];
            let stopped = if self.as_postgres {
                let mut all = vec!["-u", "postgres", "--", path(&program)];
                all.extend_from_slice(&args);
                Command::new("runuser").args(&all).output()
            } else {
                Command::new(&program).args(args).output()
            };
            if !stopped.is_ok_and(|output| output.status.success()) {
                eprintln!("the test cluster in {} was not stopped", self.dir.display());
            }
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
