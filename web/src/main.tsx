import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { applyThemeToDocument, readTheme } from './app/theme';
import { App } from './app/App';
import { applyLanguageToDocument } from './app/language';
import './app/global.css';

// Before the first render, so the page never flashes the wrong background.
applyThemeToDocument(readTheme());
applyLanguageToDocument();

const container = document.getElementById('root');
if (!container) throw new Error('missing #root');
createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
