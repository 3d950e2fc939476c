launch_id: u32x3, launch_size: u32x3 uniform, sbt: u64 uniform,
payload: u32 return, ray_tmin: f32 discardable, hit: bool
