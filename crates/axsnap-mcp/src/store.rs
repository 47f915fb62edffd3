//! [`Store`]: the state store that lets several servers serve one set of handle sessions
//! (`--state redis://…`).
//!
//! A handle session's whole state (refs, baselines, tabs, its browser context's id; see
//! [`crate::browsing::SavedBrowsing`]) is written to Redis after every call, under a version
//! that counts its calls. A server keeps its own copy of the sessions it served; a call whose
//! session was served elsewhere since (the stored version moved on) reads the state back first.
//! So any server can take any call, and a server killed mid-session loses nothing but the call
//! it was running.
//!
//! Keys, under `axsnap:`: `s:{handle}` (a hash: `ver`, `state`), `s:{handle}:lock` (the server
//! running a call in it, with a short expiry renewed while the call runs: a killed server's
//! lock lapses within [`LOCK_TTL`]) and `sessions` (a sorted set of handles by last use, for
//! the idle reaper, which any server may run: the first to lock an expired session ends it).
//!
//! Round trips per call: one to lock and read the version, one to write the state and unlock;
//! one more to read the state when the session was served elsewhere.

use std::time::Duration;

use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use redis::Script;
use thiserror::Error;

/// How long a call's lock holds without renewal; renewed every third of it while the call
/// runs, so a killed server holds its sessions this long at most.
pub const LOCK_TTL: Duration = Duration::from_secs(6);

/// How long a call waits for another server's call in the same session to end.
pub const LOCK_WAIT: Duration = Duration::from_secs(30);

/// How long a stored session outlives its idle timeout: the reaper ends sessions at the
/// timeout; this expiry only cleans up after a service that stopped altogether.
const KEEP_PAST_IDLE: Duration = Duration::from_secs(3600);

const PREFIX: &str = "axsnap:";

/// Why the store failed.
#[derive(Debug, Error)]
pub enum StoreError {
    /// The store's URL is not one Redis takes.
    #[error("--state {url:?} is not a Redis URL ({reason}); give redis://HOST:PORT[/DB]")]
    BadUrl {
        /// The URL, without a password.
        url: String,
        /// What the client said.
        reason: String,
    },
    /// Redis did not answer or refused.
    #[error("the state store (Redis) failed: {0}; check that it runs and this server reaches it")]
    Redis(String),
    /// Another server's call held the session longer than [`LOCK_WAIT`].
    #[error("another call in this session ran for over {} s on another server; try again", LOCK_WAIT.as_secs())]
    Busy,
}

impl From<redis::RedisError> for StoreError {
    fn from(e: redis::RedisError) -> Self {
        StoreError::Redis(e.to_string())
    }
}

/// What [`Store::lock`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Locked {
    /// The session is stored (at this version) and now locked for this call.
    At(u64),
    /// No such session.
    Unknown,
}

/// The Redis state store of one server.
#[derive(Clone)]
pub struct Store {
    con: ConnectionManager,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store").finish_non_exhaustive()
    }
}

/// Who holds a session's lock: one call (random, so a lock is only ever renewed, written
/// under or lifted by the call that took it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token(String);

impl Token {
    /// A fresh token from the OS's random source.
    pub fn new() -> Result<Token, StoreError> {
        let mut bytes = [0u8; 12];
        getrandom::fill(&mut bytes).map_err(|e| StoreError::Redis(format!("no random source: {e}")))?;
        Ok(Token(bytes.iter().map(|b| format!("{b:02x}")).collect()))
    }
}

/// Redis's clock in milliseconds, inside a script: the servers' own clocks need not agree.
const NOW_MS: &str = "local t = redis.call('TIME')
              local now = t[1] * 1000 + math.floor(t[2] / 1000)";

impl Store {
    /// Connects to Redis at `url` now, so a wrong address fails at start, not on a call.
    pub async fn connect(url: &str) -> Result<Store, StoreError> {
        let client = redis::Client::open(url)
            .map_err(|e| StoreError::BadUrl { url: without_password(url), reason: e.to_string() })?;
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(Duration::from_secs(5)))
            .set_response_timeout(Some(Duration::from_secs(10)))
            .set_number_of_retries(4);
        let mut con = ConnectionManager::new_with_config(client, config).await?;
        let _: String = redis::cmd("PING").query_async(&mut con).await?;
        Ok(Store { con })
    }

    /// Stores a new session at version 1; `false` when the handle is taken already.
    pub async fn create(&self, handle: &str, state: &[u8], keep: Duration) -> Result<bool, StoreError> {
        let created: i64 = Script::new(&format!(
            "if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
              redis.call('HSET', KEYS[1], 'ver', 1, 'state', ARGV[1])
              redis.call('PEXPIRE', KEYS[1], ARGV[2])
              {NOW_MS}
              redis.call('ZADD', KEYS[2], now, ARGV[3])
              return 1"
        ))
        .key(session_key(handle))
        .key(sessions_key())
        .arg(state)
        .arg(millis(keep + KEEP_PAST_IDLE))
        .arg(handle)
        .invoke_async(&mut self.con.clone())
        .await?;
        Ok(created == 1)
    }

    /// Locks the session for a call with `token`, waiting (at most [`LOCK_WAIT`]) for a call
    /// running on another server, and says its stored version.
    pub async fn lock(&self, handle: &str, token: &Token) -> Result<Locked, StoreError> {
        let script = Script::new(
            r"if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
              if redis.call('SET', KEYS[2], ARGV[1], 'NX', 'PX', ARGV[2]) then
                return tonumber(redis.call('HGET', KEYS[1], 'ver') or '0')
              end
              return -2",
        );
        let until = tokio::time::Instant::now() + LOCK_WAIT;
        loop {
            let found: i64 = script
                .key(session_key(handle))
                .key(lock_key(handle))
                .arg(&token.0)
                .arg(millis(LOCK_TTL))
                .invoke_async(&mut self.con.clone())
                .await?;
            match found {
                -1 => return Ok(Locked::Unknown),
                -2 if tokio::time::Instant::now() >= until => return Err(StoreError::Busy),
                -2 => tokio::time::sleep(Duration::from_millis(40)).await,
                v => return Ok(Locked::At(u64::try_from(v).unwrap_or(0))),
            }
        }
    }

    /// Keeps the lock `token` holds from lapsing while a call runs; `false` when it is no
    /// longer held.
    pub async fn renew(&self, handle: &str, token: &Token) -> Result<bool, StoreError> {
        let renewed: i64 = Script::new(
            r"if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
              return 0",
        )
        .key(lock_key(handle))
        .arg(&token.0)
        .arg(millis(LOCK_TTL))
        .invoke_async(&mut self.con.clone())
        .await?;
        Ok(renewed == 1)
    }

    /// The stored state of a session, when it has one.
    pub async fn load(&self, handle: &str) -> Result<Option<Vec<u8>>, StoreError> {
        let state: Option<Vec<u8>> = redis::cmd("HGET")
            .arg(session_key(handle))
            .arg("state")
            .query_async(&mut self.con.clone())
            .await?;
        Ok(state)
    }

    /// Writes a session's state after a call and lifts the lock `token` holds; returns the new
    /// version, or `None` when the lock had lapsed (another server may have taken the session
    /// meanwhile: this state is then not written).
    pub async fn commit(
        &self,
        handle: &str,
        token: &Token,
        state: &[u8],
        keep: Duration,
    ) -> Result<Option<u64>, StoreError> {
        let version: i64 = Script::new(&format!(
            "if redis.call('GET', KEYS[2]) ~= ARGV[1] then return -1 end
              if redis.call('EXISTS', KEYS[1]) == 0 then redis.call('DEL', KEYS[2]) return -1 end
              local v = redis.call('HINCRBY', KEYS[1], 'ver', 1)
              redis.call('HSET', KEYS[1], 'state', ARGV[2])
              redis.call('PEXPIRE', KEYS[1], ARGV[3])
              {NOW_MS}
              redis.call('ZADD', KEYS[3], now, ARGV[4])
              redis.call('DEL', KEYS[2])
              return v"
        ))
        .key(session_key(handle))
        .key(lock_key(handle))
        .key(sessions_key())
        .arg(&token.0)
        .arg(state)
        .arg(millis(keep + KEEP_PAST_IDLE))
        .arg(handle)
        .invoke_async(&mut self.con.clone())
        .await?;
        Ok(u64::try_from(version).ok())
    }

    /// Lifts the lock `token` holds without writing.
    pub async fn unlock(&self, handle: &str, token: &Token) -> Result<(), StoreError> {
        let _: i64 = Script::new(
            r"if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
              return 0",
        )
        .key(lock_key(handle))
        .arg(&token.0)
        .invoke_async(&mut self.con.clone())
        .await?;
        Ok(())
    }

    /// Forgets a session (closed or ended idle), and lifts the lock `token` holds on it.
    pub async fn remove(&self, handle: &str, token: &Token) -> Result<(), StoreError> {
        let _: i64 = Script::new(
            r"redis.call('DEL', KEYS[1])
              redis.call('ZREM', KEYS[3], ARGV[2])
              if redis.call('GET', KEYS[2]) == ARGV[1] then redis.call('DEL', KEYS[2]) end
              return 1",
        )
        .key(session_key(handle))
        .key(lock_key(handle))
        .key(sessions_key())
        .arg(&token.0)
        .arg(handle)
        .invoke_async(&mut self.con.clone())
        .await?;
        Ok(())
    }

    /// Handles of sessions last used longer than `idle` ago (at most `limit`), for the reaper.
    pub async fn idle(&self, idle: Duration, limit: usize) -> Result<Vec<String>, StoreError> {
        let handles: Vec<String> = Script::new(&format!(
            "{NOW_MS}
              return redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[1]), 'LIMIT', 0, tonumber(ARGV[2]))"
        ))
        .key(sessions_key())
        .arg(millis(idle))
        .arg(limit)
        .invoke_async(&mut self.con.clone())
        .await?;
        Ok(handles)
    }

    /// Claims an idle session for ending: locks it with `token` when no call runs and it is
    /// still idle past `idle`. `Some(version)` when this server won it: it must then end it
    /// and [`Store::remove`] it. It stays on the reaper's list until removed, so a server that
    /// dies while ending it leaves it to the next one.
    pub async fn claim(
        &self,
        handle: &str,
        token: &Token,
        idle: Duration,
    ) -> Result<Option<u64>, StoreError> {
        let claimed: i64 = Script::new(&format!(
            "local used = redis.call('ZSCORE', KEYS[3], ARGV[3])
              {NOW_MS}
              if not used or tonumber(used) > now - tonumber(ARGV[4]) then return -1 end
              if not redis.call('SET', KEYS[2], ARGV[1], 'NX', 'PX', ARGV[2]) then return -1 end
              return tonumber(redis.call('HGET', KEYS[1], 'ver') or '0')"
        ))
        .key(session_key(handle))
        .key(lock_key(handle))
        .key(sessions_key())
        .arg(&token.0)
        .arg(millis(LOCK_TTL))
        .arg(handle)
        .arg(millis(idle))
        .invoke_async(&mut self.con.clone())
        .await?;
        Ok(u64::try_from(claimed).ok())
    }
}

fn session_key(handle: &str) -> String {
    format!("{PREFIX}s:{handle}")
}

fn lock_key(handle: &str) -> String {
    format!("{PREFIX}s:{handle}:lock")
}

fn sessions_key() -> String {
    format!("{PREFIX}sessions")
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// A Redis URL as an error may show it: no password.
fn without_password(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(mut u) if u.password().is_some() => {
            let _ = u.set_password(Some("***"));
            u.to_string()
        }
        Ok(u) => u.to_string(),
        Err(_) => url.chars().take(60).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A redis-server of the test's own on a free port (Debian's `redis-server`, installed by
    /// `scripts/test`), stopped when dropped.
    struct Redis {
        child: std::process::Child,
        url: String,
        _dir: std::path::PathBuf,
    }

    impl Redis {
        fn start() -> Redis {
            let port = std::net::TcpListener::bind("127.0.0.1:0")
                .and_then(|l| l.local_addr())
                .map(|a| a.port())
                .expect("a free port");
            let dir = std::env::temp_dir().join(format!("axsnap-redis-{}-{port}", std::process::id()));
            std::fs::create_dir_all(&dir).expect("a temporary directory");
            let child = std::process::Command::new("redis-server")
                .args([
                    "--port",
                    &port.to_string(),
                    "--bind",
                    "127.0.0.1",
                    "--save",
                    "",
                    "--appendonly",
                    "no",
                ])
                .arg("--dir")
                .arg(&dir)
                .stdout(std::process::Stdio::null())
                .spawn()
                .expect("redis-server (Debian's redis-server package; scripts/test installs it)");
            let deadline = std::time::Instant::now() + Duration::from_secs(20);
            while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
                assert!(std::time::Instant::now() < deadline, "redis-server did not listen");
                std::thread::sleep(Duration::from_millis(20));
            }
            Redis { child, url: format!("redis://127.0.0.1:{port}"), _dir: dir }
        }
    }

    impl Drop for Redis {
        fn drop(&mut self) {
            let _ = self.child.kill();
            let _ = self.child.wait();
            let _ = std::fs::remove_dir_all(&self._dir);
        }
    }

    fn rt() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("a runtime")
    }

    const KEEP: Duration = Duration::from_secs(60);

    fn token() -> Token {
        Token::new().expect("a token")
    }

    #[test]
    fn a_session_goes_from_one_call_to_another_by_version() {
        let redis = Redis::start();
        rt().block_on(async {
            let a = Store::connect(&redis.url).await.expect("store a");
            let b = Store::connect(&redis.url).await.expect("store b");
            let (ta, tb) = (token(), token());
            assert_eq!(b.lock("h1", &tb).await.expect("lock"), Locked::Unknown);
            assert!(a.create("h1", b"one", KEEP).await.expect("create"));
            assert!(!b.create("h1", b"other", KEEP).await.expect("create again"), "a handle is stored once");
            assert_eq!(b.lock("h1", &tb).await.expect("lock"), Locked::At(1));
            assert_eq!(b.load("h1").await.expect("load").as_deref(), Some(&b"one"[..]));
            assert_eq!(b.commit("h1", &tb, b"two", KEEP).await.expect("commit"), Some(2));
            assert_eq!(a.lock("h1", &ta).await.expect("lock"), Locked::At(2), "a sees b's version");
            assert_eq!(a.load("h1").await.expect("load").as_deref(), Some(&b"two"[..]));
            assert!(a.renew("h1", &ta).await.expect("renew"));
            // Another call, even on the same server (same Store), holds nothing.
            let other = token();
            assert!(!a.renew("h1", &other).await.expect("renew"), "only the holder renews");
            assert_eq!(
                a.commit("h1", &other, b"lost", KEEP).await.expect("commit"),
                None,
                "only the holder writes"
            );
            a.unlock("h1", &other).await.expect("unlock");
            assert!(a.renew("h1", &ta).await.expect("renew"), "another call's unlock lifted nothing");
            a.unlock("h1", &ta).await.expect("unlock");
            assert_eq!(b.lock("h1", &tb).await.expect("lock"), Locked::At(2));
            // Removing with another call's token leaves that call's lock to lapse on its own.
            a.remove("h1", &ta).await.expect("remove");
            assert_eq!(a.load("h1").await.expect("load"), None);
            assert!(b.renew("h1", &tb).await.expect("renew"));
            b.unlock("h1", &tb).await.expect("unlock");
            assert_eq!(b.lock("h1", &tb).await.expect("lock"), Locked::Unknown);
        });
    }

    #[test]
    fn a_call_waits_for_another_call_in_the_same_session() {
        let redis = Redis::start();
        rt().block_on(async {
            let a = Store::connect(&redis.url).await.expect("store a");
            let b = Store::connect(&redis.url).await.expect("store b");
            let (ta, tb) = (token(), token());
            assert!(a.create("h2", b"x", KEEP).await.expect("create"));
            assert_eq!(a.lock("h2", &ta).await.expect("lock"), Locked::At(1));
            let writer = a.clone();
            let finish = tokio::spawn(async move {
                tokio::time::sleep(Duration::from_millis(300)).await;
                writer.commit("h2", &ta, b"y", KEEP).await
            });
            let started = tokio::time::Instant::now();
            assert_eq!(b.lock("h2", &tb).await.expect("lock"), Locked::At(2), "b ran after a's write");
            assert!(started.elapsed() >= Duration::from_millis(250));
            assert_eq!(finish.await.expect("join").expect("commit"), Some(2));
        });
    }

    #[test]
    fn idle_sessions_are_claimed_by_one_server_and_stay_listed_until_removed() {
        let redis = Redis::start();
        rt().block_on(async {
            let a = Store::connect(&redis.url).await.expect("store a");
            let b = Store::connect(&redis.url).await.expect("store b");
            let (ta, tb) = (token(), token());
            assert!(a.create("old", b"x", KEEP).await.expect("create"));
            tokio::time::sleep(Duration::from_millis(50)).await;
            assert!(a.create("new", b"x", KEEP).await.expect("create"));
            let idle = Duration::from_millis(30);
            assert_eq!(a.idle(idle, 10).await.expect("idle"), ["old"]);
            let (ca, cb) = tokio::join!(a.claim("old", &ta, idle), b.claim("old", &tb, idle));
            let won: Vec<Option<u64>> = vec![ca.expect("claim"), cb.expect("claim")];
            assert_eq!(won.iter().filter(|w| w.is_some()).count(), 1, "{won:?}");
            assert_eq!(a.claim("new", &ta, idle).await.expect("claim"), None, "used since");
            // Listed until the winner removes it: a winner that dies leaves it to the next.
            assert_eq!(a.idle(idle, 10).await.expect("idle"), ["old"]);
            let winner = if won[0].is_some() { &ta } else { &tb };
            a.remove("old", winner).await.expect("remove");
            assert!(a.idle(idle, 10).await.expect("idle").is_empty());
        });
    }

    #[test]
    fn a_bad_url_or_no_server_is_a_clear_error() {
        rt().block_on(async {
            let bad =
                Store::connect("http://127.0.0.1:1").await.err().map(|e| e.to_string()).unwrap_or_default();
            assert!(bad.contains("not a Redis URL"), "{bad}");
            let port =
                std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("port").port();
            let none =
                Store::connect(&format!("redis://:pw@127.0.0.1:{port}")).await.err().map(|e| e.to_string());
            let none = none.unwrap_or_default();
            assert!(none.contains("state store (Redis) failed"), "{none}");
            assert!(!none.contains("pw"), "no password in errors: {none}");
        });
    }
}
