; Loads the 32-bit words 1 and 2 of the buffer at the 64-bit address in u4:u5 into r0 and
; r1, adds them into r2 and stops: `gpuabi agx sim examples/agx/load.s --state
; examples/agx/load_state.json` (the state gives the address and the buffer's bytes).
load r0_r1, du4, 1, i32, xy, a
wait a
iadd r2, r0, r1
stop
