/** Unix seconds, the unit of every time column. */
export const nowSeconds = () => Math.floor(Date.now() / 1000);
//# sourceMappingURL=time.js.map