//! Not written yet.

pub fn run() -> anyhow::Result<()> {
    anyhow::bail!("this xtask command is not written yet")
}
