export const ok = (data, message = '') => ({ success: true, message, data });
//# sourceMappingURL=envelope.js.map