//! `--stats` of `agx run`, printed: per part, the instructions executed by kind and the
//! tile-buffer and device-memory traffic (counted by `gpuabi_agx_exec::Stats`).

use gpuabi_agx_exec::Stats;

/// The counts as JSON: `{part: {instructions, tile_read_bytes, …}}`.
pub fn stats_json(stats: &Stats) -> serde_json::Value {
    stats
        .parts()
        .into_iter()
        .map(|(part, c)| {
            let instructions: serde_json::Map<String, serde_json::Value> = c
                .instructions()
                .into_iter()
                .map(|(n, k)| (n.to_string(), k.into()))
                .collect();
            let v = serde_json::json!({
                "instructions": instructions,
                "tile_read_bytes": c.tile_read_bytes,
                "tile_write_bytes": c.tile_write_bytes,
                "memory_read_bytes": c.memory_read_bytes,
                "memory_write_bytes": c.memory_write_bytes,
            });
            (part.to_string(), v)
        })
        .collect::<serde_json::Map<_, _>>()
        .into()
}

/// The counts as text, one part a paragraph.
pub fn stats_text(stats: &Stats) -> String {
    let mut s = String::new();
    for (part, c) in stats.parts() {
        s += &format!("stats {part}: {} instructions\n", c.total());
        for (n, k) in c.instructions() {
            s += &format!("  {n} {k}\n");
        }
        s += &format!(
            "  tile buffer: {} bytes read, {} written; memory: {} bytes read, {} written\n",
            c.tile_read_bytes, c.tile_write_bytes, c.memory_read_bytes, c.memory_write_bytes
        );
    }
    s
}
