import { Component, type ErrorInfo, type ReactNode } from 'react';

interface Props {
  children: ReactNode;
  /** Changing this (e.g. the section id) clears a shown error. */
  resetKey?: string;
}

interface State {
  error?: Error;
}

/** A crash in one section shows a message there instead of blanking the whole console. */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = {};

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidUpdate(prev: Props): void {
    if (prev.resetKey !== this.props.resetKey && this.state.error) this.setState({ error: undefined });
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.warn('section crashed', error.message, info.componentStack);
  }

  override render(): ReactNode {
    if (!this.state.error) return this.props.children;
    return (
      <div role="alert" className="panel error-panel">
        <h2>Something went wrong in this view</h2>
        <p>{this.state.error.message}</p>
        <button type="button" onClick={() => this.setState({ error: undefined })}>
          Try again
        </button>
      </div>
    );
  }
}
