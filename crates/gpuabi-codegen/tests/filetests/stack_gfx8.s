error: internal error after emission: `v_addc_u32`: reads 2 different SGPRs or literals; gfx8 allows 1 (constant bus) (function `k`, bytes 335..357)
